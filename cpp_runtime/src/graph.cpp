// Building a WebGPUGraph: tensors and their buffers, nodes, recorded
// dispatches and copies, resizing.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "copy_words_wgsl.h"
#include "graph_impl.h"
#include "wgpu_util.h"

namespace webgpu_delegate {

WebGPUGraph::Impl::~Impl() {
  for (auto& c : commands) {
    if (c.bind_group) wgpuBindGroupRelease(c.bind_group);
    if (c.uniform) wgpuBufferRelease(c.uniform);
  }
  for (auto& [key, buffer] : dummies) wgpuBufferRelease(buffer);
  for (WGPUBuffer b : owned_buffers) wgpuBufferRelease(b);
  if (staging) wgpuBufferRelease(staging);
  if (timestamp_resolve) wgpuBufferRelease(timestamp_resolve);
  if (timestamps) wgpuQuerySetRelease(timestamps);
}

std::string WebGPUGraph::Impl::prefix(const std::string& fallback) const {
  return "WebGPU " + (building.empty() ? fallback : building) + ": ";
}

WGPUBuffer WebGPUGraph::Impl::create_buffer(uint64_t bytes, WGPUBufferUsage usage,
                                            const std::string& what) {
  if (bytes > device.limits().max_buffer_size) {
    throw Error(prefix("graph") + what + " needs a " + std::to_string(bytes) +
                "-byte buffer, more than the device's maxBufferSize " +
                std::to_string(device.limits().max_buffer_size));
  }
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.size = bytes;
  desc.usage = usage;
  device.push_error_scopes();
  WGPUBuffer buffer = wgpuDeviceCreateBuffer(device.handle(), &desc);
  const std::string errors = device.pop_error_scopes();
  if (!errors.empty() || !buffer) {
    if (buffer) wgpuBufferRelease(buffer);
    throw Error(prefix("graph") + "creating the " + std::to_string(bytes) + "-byte buffer for " +
                what + " failed: " + (errors.empty() ? std::string("no buffer returned") : errors));
  }
  return buffer;
}

WGPUBuffer WebGPUGraph::Impl::dummy(uint64_t bytes, size_t ordinal) {
  const uint64_t size = buffer_size_for(bytes);
  auto key = std::make_pair(size, ordinal);
  auto it = dummies.find(key);
  if (it != dummies.end()) return it->second;
  WGPUBuffer buffer = create_buffer(size, WGPUBufferUsage_Storage, "a dummy binding");
  dummies.emplace(key, buffer);
  return buffer;
}

Command& WebGPUGraph::Impl::command(DispatchId id, Command::Kind kind, const char* caller) {
  if (id >= commands.size()) {
    throw Error(std::string("WebGPU graph: ") + caller + " of command " + std::to_string(id) +
                ", which does not exist (the graph has " + std::to_string(commands.size()) +
                " commands)");
  }
  Command& c = commands[id];
  if (c.kind != kind) {
    throw Error(std::string("WebGPU graph: ") + caller + " of command " + std::to_string(id) +
                ", which is a " + (c.kind == Command::Kind::Copy ? "copy" : "dispatch"));
  }
  return c;
}

WebGPUGraph::WebGPUGraph(Device& device) : impl_(std::make_unique<Impl>(device)) {}
WebGPUGraph::~WebGPUGraph() = default;

Device& WebGPUGraph::device() const {
  return impl_->device;
}
const Limits& WebGPUGraph::limits() const {
  return impl_->device.limits();
}
bool WebGPUGraph::has_feature(Feature feature) const {
  return impl_->device.has_feature(feature);
}

// --- tensors ----------------------------------------------------------------------
ValueRef WebGPUGraph::add_tensor(DType dtype, std::vector<int64_t> dims) {
  const std::string what = "tensor value " + std::to_string(impl_->values.size()) + " (" +
                           dtype_name(dtype) + utils::format_value(dims) + ")";
  const int64_t numel = checked_numel(dims, what);
  const uint64_t elem = dtype_size(dtype);
  if (static_cast<uint64_t>(numel) > std::numeric_limits<uint64_t>::max() / elem) {
    throw Error("WebGPU graph: " + what + " has too many bytes");
  }
  const uint64_t bytes = buffer_size_for(static_cast<uint64_t>(numel) * elem);
  WGPUBuffer buffer = impl_->create_buffer(
      bytes, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, what);
  impl_->owned_buffers.push_back(buffer);
  Tensor t;
  t.dtype = dtype;
  t.max_dims = dims;
  t.live_dims = std::move(dims);
  t.buffer = buffer;
  t.buffer_bytes = bytes;
  return impl_->push(ValueType::Tensor, std::move(t));
}

ValueRef WebGPUGraph::add_tensor_view(ValueRef base, std::vector<int64_t> dims) {
  return add_tensor_view(base, std::move(dims), get_tensor(base).dtype);
}

ValueRef WebGPUGraph::add_tensor_view(ValueRef base, std::vector<int64_t> dims, DType dtype) {
  const Tensor& b = get_tensor(base);
  const std::string what =
      "view " + std::to_string(impl_->values.size()) + " of value " + std::to_string(base);
  const uint64_t bytes = static_cast<uint64_t>(checked_numel(dims, what)) * dtype_size(dtype);
  if (bytes > b.buffer_bytes) {
    throw Error("WebGPU graph: " + what + " as " + dtype_name(dtype) + utils::format_value(dims) +
                " needs " + std::to_string(bytes) + " bytes, the base buffer holds " +
                std::to_string(b.buffer_bytes));
  }
  Tensor t;
  t.dtype = dtype;
  t.max_dims = dims;
  t.live_dims = std::move(dims);
  t.buffer = b.buffer;
  t.buffer_bytes = b.buffer_bytes;
  return impl_->push(ValueType::Tensor, std::move(t));
}

// --- nodes ----------------------------------------------------------------------------
void WebGPUGraph::add_node(const std::string& target, const std::vector<ValueRef>& args) {
  const OperatorRegistry& registry = OperatorRegistry::instance();
  if (!registry.has_op(target)) {
    throw Error("WebGPU graph: no op registered for target '" + target + "' (" +
                std::to_string(registry.targets().size()) + " targets are registered)");
  }
  // Errors the runtime raises while the handler builds name the op (e.g. a buffer
  // above the device's limits).
  struct Building {
    std::string& slot;
    ~Building() { slot.clear(); }
  } building{impl_->building};
  impl_->building = target;
  const size_t first = impl_->commands.size();
  registry.get_op(target)(*this, args);
  ++impl_->num_nodes;
  // A node that reads a SymInt (a position, a sequence length) rewrites its params when the
  // SymInt changes, i.e. between executes: its commands never compute constants, even
  // where they read only constants (the RoPE table rows at start_pos).
  bool symbolic = false;
  for (ValueRef a : args) {
    symbolic = symbolic || type_of(a) == ValueType::SymInt;
    if (type_of(a) == ValueType::ValueList) {
      for (ValueRef item : get_value_list(a)) symbolic = symbolic || type_of(item) == ValueType::SymInt;
    }
  }
  for (size_t i = first; symbolic && i < impl_->commands.size(); ++i) {
    impl_->commands[i].per_execute = true;
  }
}

// --- dispatches --------------------------------------------------------------------------
namespace {

void check_grid(const Limits& limits, const std::string& kernel, const utils::Grid& grid) {
  const uint32_t max = limits.max_workgroups_per_dimension;
  if (grid.x > max || grid.y > max || grid.z > max) {
    throw Error("WebGPU kernel " + kernel + ": dispatch grid " + std::to_string(grid.x) + "x" +
                std::to_string(grid.y) + "x" + std::to_string(grid.z) +
                " exceeds maxComputeWorkgroupsPerDimension " + std::to_string(max));
  }
}

// A kernel's features (KernelSource::features, comma-separated) must all be on the
// device: a handler takes a feature route only when they are, so this catches a
// hand-written caller before the shader compiler reports something obscure.
void check_features(const Device& device, const KernelSource& kernel) {
  const std::string needed = kernel.features ? kernel.features : "";
  size_t start = 0;
  while (start < needed.size()) {
    const size_t comma = std::min(needed.find(',', start), needed.size());
    const std::string name = needed.substr(start, comma - start);
    bool present = false;
    for (Feature f : kFeatures) present = present || (name == feature_name(f) && device.has_feature(f));
    if (!present) {
      throw Error("WebGPU kernel " + std::string(kernel.name) + ": needs the device feature " +
                  name + ", which this device lacks (it has: " +
                  utils::format_value(device.feature_names()) + ")");
    }
    start = comma + 1;
  }
}

std::string describe_bindings(const std::vector<KernelBinding>& declared) {
  std::string s;
  for (size_t i = 0; i < declared.size(); ++i) {
    if (!s.empty()) s += ", ";
    s += std::to_string(i) + ": " + declared[i].name + " " + binding_kind_name(declared[i].kind);
  }
  return s.empty() ? "none" : s;
}

}  // namespace

const char* binding_kind_name(KernelBinding::Kind kind) {
  switch (kind) {
    case KernelBinding::Kind::Uniform:
      return "var<uniform>";
    case KernelBinding::Kind::ReadOnlyStorage:
      return "var<storage, read>";
    case KernelBinding::Kind::Storage:
      return "var<storage, read_write>";
  }
  return "?";
}

DispatchId WebGPUGraph::add_dispatch(const KernelSource& kernel,
                                     std::vector<OverrideValue> overrides,
                                     std::vector<Binding> bindings, const void* params,
                                     size_t params_size, utils::Grid grid) {
  Impl& g = *impl_;
  const std::string name = kernel.name ? kernel.name : "<unnamed>";
  check_grid(limits(), name, grid);
  check_features(g.device, kernel);
  const PipelineEntry& pipeline = g.device.pipelines().get(kernel, overrides);
  const std::vector<KernelBinding>& declared = pipeline.shader->bindings;
  if (bindings.size() != declared.size()) {
    throw Error("WebGPU kernel " + name + ": the handler passes " +
                std::to_string(bindings.size()) + " bindings, the kernel declares " +
                std::to_string(declared.size()) + " (" + describe_bindings(declared) + ")");
  }
  const bool binds_params = std::any_of(bindings.begin(), bindings.end(), [](const Binding& b) {
    return b.kind == Binding::Kind::Params;
  });
  if (binds_params && (params == nullptr || params_size == 0)) {
    throw Error("WebGPU kernel " + name + ": a params binding without params bytes");
  }
  if (!binds_params && params_size != 0) {
    throw Error("WebGPU kernel " + name + ": " + std::to_string(params_size) +
                " params bytes but no Binding::params() to bind them");
  }
  if (params_size > limits().max_uniform_buffer_binding_size) {
    throw Error("WebGPU kernel " + name + ": params of " + std::to_string(params_size) +
                " bytes exceed maxUniformBufferBindingSize " +
                std::to_string(limits().max_uniform_buffer_binding_size));
  }

  Command cmd;
  cmd.kind = Command::Kind::Dispatch;
  cmd.pipeline = &pipeline;
  cmd.grid = grid;
  std::vector<WGPUBindGroupEntry> entries;
  std::vector<std::pair<WGPUBuffer, size_t>> bound;  // (buffer, binding) of tensor bindings
  std::vector<ValueRef> written;  // tensors at read_write bindings
  size_t dummy_ordinal = 0;
  try {
    if (binds_params) {
      cmd.params.assign(static_cast<const uint8_t*>(params),
                        static_cast<const uint8_t*>(params) + params_size);
      cmd.params.resize(round_up(params_size, 4), 0);
      cmd.params_dirty = true;
      cmd.uniform = g.create_buffer(std::max<uint64_t>(16, round_up(params_size, 16)),
                                    WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
                                    "the params of kernel " + name);
    }
    for (size_t i = 0; i < bindings.size(); ++i) {
      const Binding& b = bindings[i];
      const KernelBinding& d = declared[i];
      const std::string where = "WebGPU kernel " + name + ": binding " + std::to_string(i) + " (" +
                                d.name + ", " + binding_kind_name(d.kind) + ")";
      WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
      e.binding = static_cast<uint32_t>(i);
      if (b.kind == Binding::Kind::Params) {
        if (d.kind != KernelBinding::Kind::Uniform) {
          throw Error(where + " is bound to the params uniform, expected a tensor");
        }
        e.buffer = cmd.uniform;
      } else {
        if (d.kind == KernelBinding::Kind::Uniform) {
          throw Error(where + " is bound to " +
                      (b.kind == Binding::Kind::Dummy
                           ? std::string("a dummy")
                           : "tensor value " + std::to_string(b.tensor)) +
                      ", expected Binding::params()");
        }
        uint64_t bytes = 0;
        if (b.kind == Binding::Kind::Tensor && !d.read) {
          // the kernel never names it: nothing to read, nothing to keep alive
          e.buffer = g.dummy(d.dummy_bytes, dummy_ordinal++);
          bytes = buffer_size_for(d.dummy_bytes);
        } else if (b.kind == Binding::Kind::Tensor) {
          const Tensor& t = get_tensor(b.tensor);
          e.buffer = t.buffer;
          bytes = t.buffer_bytes;
          for (const auto& [other, at] : bound) {
            const bool writes = d.kind == KernelBinding::Kind::Storage ||
                                declared[at].kind == KernelBinding::Kind::Storage;
            if (other == t.buffer && writes) {
              throw Error(
                  where + " and binding " + std::to_string(at) + " share one buffer (value " +
                  std::to_string(b.tensor) +
                  ") and one of them is read_write; a dispatch cannot alias a written buffer");
            }
          }
          bound.emplace_back(t.buffer, i);
          (d.kind == KernelBinding::Kind::Storage ? cmd.access.writes : cmd.access.reads)
              .push_back(t.buffer);
          if (d.kind == KernelBinding::Kind::Storage && g.host_read.count(b.tensor)) {
            throw Error(where + " writes tensor value " + std::to_string(b.tensor) +
                        ", which an op reads on the host (read_on_host); its host values "
                        "would go stale");
          }
          if (d.kind == KernelBinding::Kind::Storage) written.push_back(b.tensor);
        } else {
          cmd.access.writes_dummy |= d.kind == KernelBinding::Kind::Storage;
          e.buffer = g.dummy(d.dummy_bytes, dummy_ordinal++);
          bytes = buffer_size_for(d.dummy_bytes);
        }
        if (bytes > limits().max_storage_buffer_binding_size) {
          const std::string value = b.kind == Binding::Kind::Tensor
                                        ? "tensor value " + std::to_string(b.tensor) + " (" +
                                              describe_tensor(get_tensor(b.tensor)) + ")"
                                        : std::string("a dummy binding");
          throw Error(g.prefix("kernel " + name) + value +
                      " is too large for one storage binding (" + d.name + " of kernel " + name +
                      ", binding " + std::to_string(i) + ") (got " + std::to_string(bytes) +
                      " bytes, expected at most maxStorageBufferBindingSize " +
                      std::to_string(limits().max_storage_buffer_binding_size) + ")");
        }
      }
      e.offset = 0;
      e.size = WGPU_WHOLE_SIZE;
      entries.push_back(e);
    }
    WGPUBindGroupDescriptor desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    desc.label = string_view(name);
    desc.layout = pipeline.shader->bind_group_layout;
    desc.entryCount = entries.size();
    desc.entries = entries.data();
    g.device.push_error_scopes();
    cmd.bind_group = wgpuDeviceCreateBindGroup(g.device.handle(), &desc);
    const std::string errors = g.device.pop_error_scopes();
    if (!errors.empty() || !cmd.bind_group) {
      throw Error("WebGPU kernel " + name + ": bind group creation failed: " +
                  (errors.empty() ? std::string("no bind group returned") : errors));
    }
  } catch (...) {
    if (cmd.bind_group) wgpuBindGroupRelease(cmd.bind_group);
    if (cmd.uniform) wgpuBufferRelease(cmd.uniform);
    throw;
  }
  g.commands.push_back(std::move(cmd));
  g.constant_plan_valid = false;
  g.device_written.insert(written.begin(), written.end());
  return g.commands.size() - 1;
}

namespace {

// Rewrites a recorded dispatch's (or copy's) uniform and grid.
void update_command(const Limits& limits, Command& c, const void* params, size_t params_size,
                    utils::Grid grid) {
  const std::string& name = c.pipeline->shader->name;
  check_grid(limits, name, grid);
  const size_t had = c.uniform ? c.params.size() : 0;
  if (round_up(params_size, 4) != had || (params_size != 0 && params == nullptr)) {
    throw Error("WebGPU kernel " + name + ": update_dispatch with " + std::to_string(params_size) +
                " params bytes, the dispatch was recorded with " + std::to_string(had));
  }
  if (params_size != 0 && std::memcmp(c.params.data(), params, params_size) != 0) {
    std::memcpy(c.params.data(), params, params_size);
    c.params_dirty = true;
    c.stale = true;
  }
  if (!(grid == c.grid)) c.stale = true;
  c.grid = grid;
}

}  // namespace

void WebGPUGraph::set_dispatch_active(DispatchId id, bool active) {
  Command& c = impl_->command(id, Command::Kind::Dispatch, "set_dispatch_active");
  if (!c.per_execute) impl_->constant_plan_valid = false;
  c.per_execute = true;
  c.active = active;
}

void WebGPUGraph::update_dispatch(DispatchId id, const void* params, size_t params_size,
                                  utils::Grid grid) {
  update_command(limits(), impl_->command(id, Command::Kind::Dispatch, "update_dispatch"), params,
                 params_size, grid);
}

namespace {

// The flat copy runs as a compute pass of the runtime's own kernel: on the H200
// copy_buffer_to_buffer moved 256 MB at a fifth of this kernel's bandwidth. Its
// WORKGROUP_SIZE and VEC4_PER_INVOCATION, as the harness also has them (the copy case
// `several_workgroups` fails in both runtimes if a grid covers less than the kernel).
constexpr uint32_t kCopyWorkgroupSize = 256;
constexpr int64_t kCopyVec4PerInvocation = 4;
constexpr KernelBinding kCopyWordsBindings[] = {
    {"params", KernelBinding::Kind::Uniform, 16, true},
    {"src", KernelBinding::Kind::ReadOnlyStorage, 16, true},
    {"dst", KernelBinding::Kind::Storage, 16, true}};
const KernelSource kCopyWordsKernel{
    "copy_words", kCopyWordsWgsl, "main", {kCopyWorkgroupSize, 1, 1}, kCopyWordsBindings, 3};

struct CopyParams {
  uint32_t num_vec4;
};

CopyParams copy_params(uint64_t nbytes) {
  const uint64_t num_vec4 = round_up(nbytes, 16) / 16;
  if (num_vec4 > std::numeric_limits<uint32_t>::max()) {
    throw Error("WebGPU graph: a copy of " + std::to_string(nbytes) +
                " bytes has more vec4s than a u32 counts");
  }
  return CopyParams{static_cast<uint32_t>(num_vec4)};
}

utils::Grid copy_grid(const CopyParams& params, const Limits& limits) {
  return utils::elementwise_grid(utils::ceil_div(params.num_vec4, kCopyVec4PerInvocation),
                                 kCopyWorkgroupSize, limits.max_workgroups_per_dimension);
}

void check_copy(const WebGPUGraph& graph, ValueRef src, ValueRef dst, uint64_t nbytes) {
  const Tensor& s = graph.get_tensor(src);
  const Tensor& d = graph.get_tensor(dst);
  if (s.buffer == d.buffer) {
    throw Error("WebGPU graph: copy from value " + std::to_string(src) + " to value " +
                std::to_string(dst) + ", which share one buffer");
  }
  const uint64_t rounded = round_up(nbytes, 16);  // the copy kernel moves whole vec4s
  if (rounded > s.buffer_bytes || rounded > d.buffer_bytes) {
    throw Error("WebGPU graph: copy of " + std::to_string(nbytes) + " bytes from value " +
                std::to_string(src) + " (" + std::to_string(s.buffer_bytes) +
                "-byte buffer) to value " + std::to_string(dst) + " (" +
                std::to_string(d.buffer_bytes) + "-byte buffer) does not fit");
  }
}

}  // namespace

DispatchId WebGPUGraph::add_copy(ValueRef src, ValueRef dst, uint64_t nbytes) {
  check_copy(*this, src, dst, nbytes);
  const CopyParams params = copy_params(nbytes);
  const DispatchId id =
      add_dispatch(kCopyWordsKernel, {}, {Binding::params(), Binding::of(src), Binding::of(dst)},
                   &params, sizeof params, copy_grid(params, limits()));
  Command& c = impl_->commands[id];
  c.kind = Command::Kind::Copy;
  c.src = src;
  c.dst = dst;
  return id;
}

void WebGPUGraph::update_copy(DispatchId id, uint64_t nbytes) {
  Command& c = impl_->command(id, Command::Kind::Copy, "update_copy");
  check_copy(*this, c.src, c.dst, nbytes);
  const CopyParams params = copy_params(nbytes);
  update_command(limits(), c, &params, sizeof params, copy_grid(params, limits()));
}

// --- resizing --------------------------------------------------------------------------------
void WebGPUGraph::add_resize_hook(std::function<void(WebGPUGraph&)> hook) {
  if (!hook) throw Error("WebGPU graph: add_resize_hook with an empty function");
  impl_->resize_hooks.push_back(std::move(hook));
}

void WebGPUGraph::set_input_dims(ValueRef tensor, std::vector<int64_t> dims) {
  Tensor& t = get_tensor(tensor);
  bool fits = dims.size() == t.max_dims.size();
  for (size_t i = 0; fits && i < dims.size(); ++i) {
    fits = dims[i] >= 0 && dims[i] <= t.max_dims[i];
  }
  if (!fits) {
    throw Error("WebGPU graph: value " + std::to_string(tensor) +
                " new dims do not fit its max dims (got " + utils::format_value(dims) +
                ", expected rank " + std::to_string(t.max_dims.size()) + " and each dim within " +
                utils::format_value(t.max_dims) + ")");
  }
  t.live_dims = std::move(dims);
}

void WebGPUGraph::resize_tensor(ValueRef tensor, std::vector<int64_t> dims) {
  Tensor& t = get_tensor(tensor);
  const std::string what = "value " + std::to_string(tensor);
  const uint64_t bytes = static_cast<uint64_t>(checked_numel(dims, what)) * dtype_size(t.dtype);
  if (bytes > t.buffer_bytes) {
    throw Error("WebGPU graph: " + what + " resized to " + dtype_name(t.dtype) +
                utils::format_value(dims) + " needs " + std::to_string(bytes) +
                " bytes, its buffer holds " + std::to_string(t.buffer_bytes) + " (max dims " +
                utils::format_value(t.max_dims) + ")");
  }
  t.live_dims = std::move(dims);
}

void WebGPUGraph::resize_input(ValueRef tensor, std::vector<int64_t> dims) {
  set_input_dims(tensor, std::move(dims));
  propagate_resize();
}

void WebGPUGraph::propagate_resize() {
  impl_->host_values_pending = false;
  for (auto& hook : impl_->resize_hooks) hook(*this);
}

// --- statistics
// -----------------------------------------------------------------------------------
size_t WebGPUGraph::num_dispatches() const {
  return static_cast<size_t>(
      std::count_if(impl_->commands.begin(), impl_->commands.end(),
                    [](const Command& c) { return c.kind == Command::Kind::Dispatch; }));
}
size_t WebGPUGraph::num_copies() const {
  return impl_->commands.size() - num_dispatches();
}
size_t WebGPUGraph::num_nodes() const {
  return impl_->num_nodes;
}

size_t WebGPUGraph::num_shader_modules() const {
  std::set<const ShaderEntry*> shaders;
  for (const auto& c : impl_->commands) {
    if (c.kind == Command::Kind::Dispatch) shaders.insert(c.pipeline->shader);
  }
  return shaders.size();
}

size_t WebGPUGraph::num_pipelines() const {
  std::set<const PipelineEntry*> pipelines;
  for (const auto& c : impl_->commands) {
    if (c.kind == Command::Kind::Dispatch) pipelines.insert(c.pipeline);
  }
  return pipelines.size();
}

const ExecuteStats& WebGPUGraph::last_execute_stats() const {
  return impl_->stats;
}

std::vector<std::string> WebGPUGraph::dispatch_kernels() const {
  std::vector<std::string> names;
  for (const auto& c : impl_->commands) {
    if (c.kind == Command::Kind::Dispatch && c.active) names.push_back(c.pipeline->shader->name);
  }
  return names;
}

}  // namespace webgpu_delegate
