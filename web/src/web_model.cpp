#include "web_model.h"

#include <nlohmann/json.hpp>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/host_io.h"

// The page's side (web/src/opgen_web_lib.js): bytes of the model file the page fetched,
// which stays a JavaScript ArrayBuffer, written into a GPU buffer or copied into wasm memory.
extern "C" {
void opgen_js_write_constant(int source, WGPUQueue queue, WGPUBuffer buffer, uint64_t offset,
                             uint64_t length);
void opgen_js_read_bytes(int source, uint64_t offset, uint64_t length, void* into);
}

namespace webgpu_delegate::web {
namespace {

using Json = nlohmann::json;

// The named constants and the constant segment of the model file, by file offset.
class PageConstants final : public vk::ExternalConstants {
 public:
  PageConstants(int source, const Json& spec) : source_(source) {
    for (const auto& [key, where] : spec.at("named").items()) named_[key] = range(where, key);
    segment_ = range(spec.at("segment"), "segment");
  }

  uint64_t named_size(const std::string& key) override { return named(key).second; }

  void write(WebGPUGraph& graph, ValueRef tensor, const std::string& key, uint64_t offset,
             uint64_t length) override {
    const uint64_t at = file_offset(key, offset, length);
    graph.copy_in_from(tensor, length, [&](WGPUQueue queue, WGPUBuffer buffer) {
      opgen_js_write_constant(source_, queue, buffer, at, length);
    });
  }

  std::vector<uint8_t> read(const std::string& key, uint64_t offset, uint64_t length) override {
    std::vector<uint8_t> bytes(length);
    if (length > 0) opgen_js_read_bytes(source_, file_offset(key, offset, length), length, bytes.data());
    return bytes;
  }

 private:
  using Range = std::pair<uint64_t, uint64_t>;  // file offset, length

  static Range range(const Json& v, const std::string& what) {
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_unsigned() || !v[1].is_number_unsigned()) {
      throw Error("WebGPU web model: " + what + " must be [offset, length], got " + v.dump());
    }
    return {v[0].get<uint64_t>(), v[1].get<uint64_t>()};
  }

  // The message the ExecuTorch backend gives for a key the program lacks.
  const Range& named(const std::string& key) const {
    auto it = named_.find(key);
    if (it == named_.end())
      throw Error("WebGPU delegate: named constant '" + key + "' is not in the program");
    return it->second;
  }

  uint64_t file_offset(const std::string& key, uint64_t offset, uint64_t length) const {
    const Range& r = key.empty() ? segment_ : named(key);
    if (offset > r.second || length > r.second - offset) {  // the loader checked; keep it so
      throw Error("WebGPU web model: constant bytes [" + std::to_string(offset) + ", +" +
                  std::to_string(length) + ") outside their " + std::to_string(r.second) +
                  "-byte entry");
    }
    return r.first + offset;
  }

  int source_;
  std::map<std::string, Range> named_;
  Range segment_{0, 0};
};

DType host_dtype(const std::string& name) {
  for (DType d : {DType::Float32, DType::Int32, DType::Int64, DType::Bool, DType::Float16,
                  DType::UInt8, DType::Int8}) {
    if (name == dtype_name(d)) return d;
  }
  throw Error("WebGPU web model: unknown dtype '" + name + "'");
}

std::string io_what(const char* kind, size_t i) {
  return std::string("delegate ") + kind + " " + std::to_string(i);
}

std::vector<HostTensor> host_tensors(const Json& list) {
  std::vector<HostTensor> out;
  for (const auto& v : list) {
    HostTensor t;
    t.dtype = host_dtype(v.at("dtype").get<std::string>());
    t.dims = v.at("dims").get<std::vector<int64_t>>();
    out.push_back(std::move(t));
  }
  return out;
}

std::string dims_json(const std::vector<int64_t>& dims) {
  return utils::format_value(dims);
}

}  // namespace

WebModel::WebModel(Device& device, int source, const uint8_t* blob, size_t blob_size,
                   const std::string& spec_text) {
  Json spec;
  try {
    spec = Json::parse(spec_text);
  } catch (const Json::exception& e) {
    throw Error(std::string("WebGPU web model: the model spec is not JSON: ") + e.what());
  }
  constants_ = std::make_unique<PageConstants>(source, spec);
  inputs_ = host_tensors(spec.at("inputs"));
  outputs_ = host_tensors(spec.at("outputs"));
  const vk::NamedDataLookup unused = [](const std::string& key) -> std::vector<uint8_t> {
    throw Error("WebGPU web model: named constant '" + key + "' read from host memory");
  };
  graph_ = std::make_unique<vk::LoadedGraph>(device, blob, blob_size, unused,
                                             /*views_share_buffers=*/true, constants_.get());
  if (graph_->inputs().size() != inputs_.size() || graph_->outputs().size() != outputs_.size()) {
    throw Error("WebGPU web model: the graph has " + std::to_string(graph_->inputs().size()) +
                " inputs and " + std::to_string(graph_->outputs().size()) +
                " outputs, the spec lists " + std::to_string(inputs_.size()) + " and " +
                std::to_string(outputs_.size()));
  }
  WebGPUGraph& graph = graph_->graph();
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (graph.type_of(graph_->inputs()[i]) != ValueType::Tensor) {
      throw Error("WebGPU web model: " + io_what("input", i) + " is a " +
                  value_type_name(graph.type_of(graph_->inputs()[i])) + ", expected a tensor");
    }
    check_host_dtype(inputs_[i].dtype, graph.get_tensor(graph_->inputs()[i]).dtype,
                     io_what("input", i));
  }
  for (size_t j = 0; j < outputs_.size(); ++j) {
    check_host_dtype(outputs_[j].dtype, graph.get_tensor(graph_->outputs()[j]).dtype,
                     io_what("output", j));
  }
  // as the ExecuTorch backend's init: constant dispatches (weight packs) once, now, and the
  // buffers only they read freed
  graph.run_constant_dispatches();
  graph.release_consumed_constants(graph_->outputs());
}

void WebModel::set_input(size_t i, std::vector<int64_t> dims, const uint8_t* data, size_t nbytes) {
  if (i >= inputs_.size()) {
    throw Error("WebGPU web model: input " + std::to_string(i) + " out of range (" +
                std::to_string(inputs_.size()) + " inputs)");
  }
  HostTensor& t = inputs_[i];
  const uint64_t expected = static_cast<uint64_t>(utils::prod(dims)) * dtype_size(t.dtype);
  if (nbytes != expected) {
    throw Error("WebGPU web model: input " + std::to_string(i) + " holds " +
                std::to_string(nbytes) + " bytes, expected " + std::to_string(expected) + " for " +
                dtype_name(t.dtype) + dims_json(dims));
  }
  t.dims = std::move(dims);
  t.bytes.assign(data, data + nbytes);
}

void WebModel::run() {
  WebGPUGraph& graph = graph_->graph();
  const auto& in = graph_->inputs();
  bool resized = false;
  for (size_t i = 0; i < in.size(); ++i) {
    if (inputs_[i].bytes.size() == 0 && utils::prod(inputs_[i].dims) != 0)
      throw Error("WebGPU web model: input " + std::to_string(i) + " was not set");
    if (inputs_[i].dims != graph.get_tensor(in[i]).dims()) {
      graph.set_input_dims(in[i], inputs_[i].dims);
      resized = true;
    }
  }
  if (resized) graph.propagate_resize();
  for (size_t i = 0; i < in.size(); ++i) {
    const HostTensor& t = inputs_[i];
    copy_in_host(graph, in[i], t.dtype, t.bytes.data(), static_cast<size_t>(utils::prod(t.dims)),
                 io_what("input", i));
  }
  graph.execute();
  for (size_t j = 0; j < outputs_.size(); ++j) {
    const ValueRef ref = graph_->outputs()[j];
    HostTensor& t = outputs_[j];
    t.dims = graph.get_tensor(ref).dims();
    t.bytes.resize(static_cast<size_t>(utils::prod(t.dims)) * dtype_size(t.dtype));
    copy_out_host(graph, ref, t.dtype, t.bytes.data(), io_what("output", j));
  }
}

std::string WebModel::describe() const {
  WebGPUGraph& graph = graph_->graph();
  auto tensors = [&](const std::vector<ValueRef>& refs) {
    std::string s = "[";
    for (size_t i = 0; i < refs.size(); ++i) {
      const Tensor& t = graph.get_tensor(refs[i]);
      s += (i ? ", " : "") + std::string("{\"dtype\": \"") + dtype_name(t.dtype) +
           "\", \"dims\": " + dims_json(t.dims()) + "}";
    }
    return s + "]";
  };
  return "{\"inputs\": " + tensors(graph_->inputs()) + ", \"outputs\": " +
         tensors(graph_->outputs()) + ", \"ops\": " + std::to_string(graph_->ops().size()) +
         ", \"dispatches\": " + std::to_string(graph.num_dispatches()) + ", \"copies\": " +
         std::to_string(graph.num_copies()) + ", \"pipelines\": " +
         std::to_string(graph.num_pipelines()) + ", \"constant_dispatches\": " +
         std::to_string(graph.num_constant_dispatches()) + ", \"freed_constant_bytes\": " +
         std::to_string(graph.released_constant_bytes()) + "}";
}

std::string WebModel::last_run() const {
  const ExecuteStats& s = graph_->graph().last_execute_stats();
  auto ms = [](double seconds) { return utils::format_value(seconds * 1e3); };
  return "{\"dispatches\": " + std::to_string(s.dispatches) + ", \"copies\": " +
         std::to_string(s.copies) + ", \"upload_ms\": " + ms(s.upload_seconds) +
         ", \"record_ms\": " + ms(s.record_seconds) + ", \"submit_ms\": " + ms(s.submit_seconds) +
         ", \"wait_ms\": " + ms(s.wait_seconds) + "}";
}

}  // namespace webgpu_delegate::web
