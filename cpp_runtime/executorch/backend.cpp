#include "backend.h"

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/platform/log.h>

#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "vk_graph.h"
#include "webgpu_delegate/device.h"
#include "webgpu_delegate/host_io.h"

namespace webgpu_delegate::executorch_backend {
namespace {

namespace et = ::executorch::runtime;
using ::executorch::aten::ScalarType;

thread_local std::string g_last_error;

// One device per process, created by the first init and shared by every graph.
Device& shared_device() {
  static Device device;
  return device;
}

// The graphs loaded and not yet destroyed, and the counts of those destroyed.
// What the set_* calls chose, for the graphs loaded after them.
struct Settings {
  bool constants_once = true;
  bool views_share_buffers = true;
  bool profiling = false;
  // measured on the H200 (docs/performance.md, LLM decode): one submit per 64 dispatches
  // took a 294-dispatch decode step from 4.17 to 3.67 ms
  size_t dispatches_per_submit = 64;
};

struct Loaded {
  std::mutex mutex;
  Settings settings;
  std::set<vk::LoadedGraph*> live;
  DispatchCounts retired;

  Settings current_settings() {
    std::lock_guard<std::mutex> lock(mutex);
    return settings;
  }
};

Loaded& loaded_graphs() {
  static Loaded loaded;
  return loaded;
}

void add_counts(DispatchCounts& into, WebGPUGraph& graph) {
  ++into.graphs;
  into.constant_dispatches += graph.num_constant_dispatches();
  into.freed_constant_bytes += graph.released_constant_bytes();
  for (const auto& [kernel, runs] : graph.kernel_runs()) into.kernel_runs[kernel] += runs;
  for (auto [from, to] : {std::pair{&graph.kernel_times(), &into.kernel_times},
                          std::pair{&graph.kernel_grid_times(), &into.kernel_grid_times}}) {
    for (const auto& [kernel, time] : *from) {
      KernelTime& sum = (*to)[kernel];
      sum.dispatches += time.dispatches;
      sum.gpu_ms += time.gpu_ms;
    }
  }
}

et::Error report(const std::string& what, et::Error code) {
  g_last_error = what;
  ET_LOG(Error, "%s", what.c_str());
  return code;
}

// The graph dtype of an ExecuTorch element type (host_io.h decides which fit which).
DType host_dtype(ScalarType type, const std::string& what) {
  switch (type) {
    case ScalarType::Float:
      return DType::Float32;
    case ScalarType::Half:
      return DType::Float16;
    case ScalarType::Int:
      return DType::Int32;
    case ScalarType::Long:
      return DType::Int64;
    case ScalarType::Byte:
      return DType::UInt8;
    case ScalarType::Char:
      return DType::Int8;
    case ScalarType::Bool:
      return DType::Bool;
    default:
      throw Error(utils::message("WebGPU delegate: ", what, " has ExecuTorch dtype ",
                                 static_cast<int>(type), ", which no graph tensor takes"));
  }
}

std::string io_what(const char* kind, size_t i) {
  return utils::message("delegate ", kind, " ", i);
}

void copy_in(WebGPUGraph& graph, ValueRef ref, const ::executorch::aten::Tensor& t,
             const std::string& what) {
  copy_in_host(graph, ref, host_dtype(t.scalar_type(), what), t.const_data_ptr(),
               static_cast<size_t>(t.numel()), what);
}

void copy_out(WebGPUGraph& graph, ValueRef ref, ::executorch::aten::Tensor& t,
              const std::string& what) {
  const Tensor& g = graph.get_tensor(ref);
  check_host_dtype(host_dtype(t.scalar_type(), what), g.dtype, what);
  std::vector<::executorch::aten::SizesType> sizes(g.dims().begin(), g.dims().end());
  if (::executorch::runtime::resize_tensor(t, {sizes.data(), sizes.size()}) != et::Error::Ok) {
    throw Error(utils::message("WebGPU delegate: ", what, " cannot be resized to ", g.dims()));
  }
  copy_out_host(graph, ref, host_dtype(t.scalar_type(), what), t.mutable_data_ptr(), what);
}

class WebGPUBackend final : public et::BackendInterface {
 public:
  bool is_available() const override { return true; }

  et::Result<et::DelegateHandle*> init(et::BackendInitContext& context,
                                       et::FreeableBuffer* processed,
                                       et::ArrayRef<et::CompileSpec>) const override {
    try {
      const et::NamedDataMap* named = context.get_named_data_map();
      auto lookup = [named](const std::string& key) {
        if (!named)
          throw Error(utils::message("WebGPU delegate: constant '", key,
                                     "' is stored by name, but the program has no named data"));
        auto data = named->get_data(key.c_str());
        if (!data.ok())
          throw Error(
              utils::message("WebGPU delegate: named constant '", key, "' is not in the program"));
        et::FreeableBuffer buffer = std::move(data.get());
        const auto* p = static_cast<const uint8_t*>(buffer.data());
        std::vector<uint8_t> bytes(p, p + buffer.size());
        buffer.Free();
        return bytes;
      };
      Loaded& loaded = loaded_graphs();
      const Settings settings = loaded.current_settings();
      auto graph = std::make_unique<vk::LoadedGraph>(
          shared_device(), static_cast<const uint8_t*>(processed->data()), processed->size(),
          lookup, settings.views_share_buffers);
      processed->Free();
      std::lock_guard<std::mutex> lock(loaded.mutex);
      graph->graph().set_constant_dispatches_once(settings.constants_once);
      graph->graph().run_constant_dispatches();  // e.g. conv weight packs, once, at load
      // the raw weights those packs read are not needed again
      graph->graph().release_consumed_constants(graph->outputs());
      graph->graph().set_profiling(settings.profiling);
      graph->graph().set_dispatches_per_submit(settings.dispatches_per_submit);
      loaded.live.insert(graph.get());
      return static_cast<et::DelegateHandle*>(graph.release());
    } catch (const std::exception& e) {
      return report(e.what(), et::Error::DelegateInvalidCompatibility);
    }
  }

  et::Error execute(et::BackendExecutionContext&, et::DelegateHandle* handle,
                    et::Span<et::EValue*> args) const override {
    auto& loaded = *static_cast<vk::LoadedGraph*>(handle);
    WebGPUGraph& graph = loaded.graph();
    const auto& inputs = loaded.inputs();
    const auto& outputs = loaded.outputs();
    try {
      if (args.size() != inputs.size() + outputs.size()) {
        throw Error(utils::message("WebGPU delegate: called with ", args.size(),
                                   " arguments, the graph has ", inputs.size(), " inputs and ",
                                   outputs.size(), " outputs"));
      }
      // New live shapes (dynamic inputs) and SymInt values first, then one resize pass.
      bool resized = false;
      for (size_t i = 0; i < inputs.size(); ++i) {
        const et::EValue& a = *args[i];
        if (a.isTensor()) {
          const auto sizes = a.toTensor().sizes();
          std::vector<int64_t> dims(sizes.begin(), sizes.end());
          if (dims != graph.get_tensor(inputs[i]).dims()) {
            graph.set_input_dims(inputs[i], std::move(dims));
            resized = true;
          }
        } else if (a.isInt() && graph.type_of(inputs[i]) == ValueType::SymInt) {
          if (graph.get_symint(inputs[i]) != a.toInt()) {
            graph.set_symint(inputs[i], a.toInt());
            resized = true;
          }
        } else {
          throw Error(utils::message("WebGPU delegate: ", io_what("input", i), " has EValue tag ",
                                     static_cast<int>(a.tag), ", the graph expects a ",
                                     value_type_name(graph.type_of(inputs[i]))));
        }
      }
      if (resized) graph.propagate_resize();
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (args[i]->isTensor())
          copy_in(graph, inputs[i], args[i]->toTensor(), io_what("input", i));
      }
      graph.execute();
      for (size_t j = 0; j < outputs.size(); ++j) {
        et::EValue& o = *args[inputs.size() + j];
        if (!o.isTensor())
          throw Error(
              utils::message("WebGPU delegate: ", io_what("output", j), " is not a tensor"));
        auto t = o.toTensor();
        copy_out(graph, outputs[j], t, io_what("output", j));
      }
      return et::Error::Ok;
    } catch (const std::exception& e) {
      return report(e.what(), et::Error::Internal);
    }
  }

  void destroy(et::DelegateHandle* handle) const override {
    auto* graph = static_cast<vk::LoadedGraph*>(handle);
    {
      Loaded& loaded = loaded_graphs();
      std::lock_guard<std::mutex> lock(loaded.mutex);
      if (loaded.live.erase(graph)) add_counts(loaded.retired, graph->graph());
    }
    delete graph;
  }
};

WebGPUBackend g_backend;
const bool g_registered =
    et::register_backend(et::Backend{kBackendId, &g_backend}) == et::Error::Ok;

}  // namespace

const std::string& last_error() {
  return g_last_error;
}
bool registered() {
  return g_registered;
}
std::string device_description() {
  return shared_device().describe();
}
size_t pipelines_created() {
  return shared_device().pipelines_created();
}

void set_constant_dispatches_once(bool once) {
  Loaded& loaded = loaded_graphs();
  std::lock_guard<std::mutex> lock(loaded.mutex);
  loaded.settings.constants_once = once;
}

void set_views_share_buffers(bool share) {
  Loaded& loaded = loaded_graphs();
  std::lock_guard<std::mutex> lock(loaded.mutex);
  loaded.settings.views_share_buffers = share;
}

void set_profiling(bool on) {
  Loaded& loaded = loaded_graphs();
  std::lock_guard<std::mutex> lock(loaded.mutex);
  loaded.settings.profiling = on;
}

void set_dispatches_per_submit(size_t n) {
  Loaded& loaded = loaded_graphs();
  std::lock_guard<std::mutex> lock(loaded.mutex);
  loaded.settings.dispatches_per_submit = n;
}

DispatchCounts dispatch_counts() {
  Loaded& loaded = loaded_graphs();
  std::lock_guard<std::mutex> lock(loaded.mutex);
  DispatchCounts counts = loaded.retired;
  for (vk::LoadedGraph* graph : loaded.live) {
    add_counts(counts, graph->graph());
    const ExecuteStats& last = graph->graph().last_execute_stats();
    counts.last_execute += last.dispatches + last.copies;
    counts.last_stats += last;
  }
  return counts;
}

}  // namespace webgpu_delegate::executorch_backend
