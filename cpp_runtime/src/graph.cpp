// Building a WebGPUGraph: tensors and their buffers, nodes, resizing, statistics
// (recording dispatches and copies: dispatch.cpp).
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "graph_impl.h"
#include "wgpu_util.h"

namespace webgpu_delegate {

std::string WebGPUGraph::Impl::prefix(const std::string& fallback) const {
  return "WebGPU " + (building.empty() ? fallback : building) + ": ";
}

Handle<WGPUBuffer> WebGPUGraph::Impl::create_buffer(uint64_t bytes, WGPUBufferUsage usage,
                                                    const std::string& what) {
  if (bytes > device.limits().max_buffer_size) {
    throw Error(utils::message(prefix("graph"), what, " needs a ", bytes,
                               "-byte buffer, more than the device's maxBufferSize ",
                               device.limits().max_buffer_size));
  }
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.size = bytes;
  desc.usage = usage;
  device.push_error_scopes();
  Handle<WGPUBuffer> buffer{wgpuDeviceCreateBuffer(device.handle(), &desc)};
  const std::string errors = device.pop_error_scopes();
  if (!errors.empty() || !buffer) {
    throw Error(utils::message(prefix("graph"), "creating the ", bytes, "-byte buffer for ", what,
                               " failed: ", errors.empty() ? "no buffer returned" : errors));
  }
  return buffer;
}

WGPUBuffer WebGPUGraph::Impl::dummy(uint64_t bytes, size_t ordinal) {
  const uint64_t size = buffer_size_for(bytes);
  const auto key = std::make_pair(size, ordinal);
  auto it = dummies.find(key);
  if (it == dummies.end()) {
    it =
        dummies.emplace(key, create_buffer(size, WGPUBufferUsage_Storage, "a dummy binding")).first;
  }
  return it->second.get();
}

Command& WebGPUGraph::Impl::command(DispatchId id, Command::Kind kind, const char* caller) {
  if (id >= commands.size()) {
    throw Error(utils::message("WebGPU graph: ", caller, " of command ", id,
                               ", which does not exist (the graph has ", commands.size(),
                               " commands)"));
  }
  Command& c = commands[id];
  if (c.kind != kind) {
    throw Error(utils::message("WebGPU graph: ", caller, " of command ", id, ", which is a ",
                               (c.kind == Command::Kind::Copy ? "copy" : "dispatch")));
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
  const std::string what =
      utils::message("tensor value ", impl_->values.size(), " (", dtype_name(dtype), dims, ")");
  const int64_t numel = checked_numel(dims, what);
  const uint64_t elem = dtype_size(dtype);
  if (static_cast<uint64_t>(numel) > std::numeric_limits<uint64_t>::max() / elem) {
    throw Error(utils::message("WebGPU graph: ", what, " has too many bytes"));
  }
  const uint64_t bytes = buffer_size_for(static_cast<uint64_t>(numel) * elem);
  impl_->owned_buffers.push_back(impl_->create_buffer(
      bytes, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, what));
  return impl_->push_tensor(dtype, std::move(dims), impl_->owned_buffers.back().get(), bytes);
}

ValueRef WebGPUGraph::add_shared_tensor(const std::string& key, DType dtype,
                                        std::vector<int64_t> dims) {
  const std::string what =
      utils::message("shared tensor ", key, " (", dtype_name(dtype), dims, ")");
  const uint64_t bytes =
      buffer_size_for(static_cast<uint64_t>(checked_numel(dims, what)) * dtype_size(dtype));
  Impl::SharedBuffer& shared = impl_->shared_buffers[key];
  if (bytes > shared.bytes) {
    impl_->owned_buffers.push_back(impl_->create_buffer(
        bytes, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, what));
    shared = {impl_->owned_buffers.back().get(), bytes};
  }
  return impl_->push_tensor(dtype, std::move(dims), shared.buffer, shared.bytes);
}

ValueRef WebGPUGraph::add_tensor_view(ValueRef base, std::vector<int64_t> dims) {
  return add_tensor_view(base, std::move(dims), get_tensor(base).dtype);
}

ValueRef WebGPUGraph::add_tensor_view(ValueRef base, std::vector<int64_t> dims, DType dtype) {
  const Tensor& b = get_tensor(base);
  const std::string what = utils::message("view ", impl_->values.size(), " of value ", base);
  const uint64_t bytes = static_cast<uint64_t>(checked_numel(dims, what)) * dtype_size(dtype);
  if (bytes > b.buffer_bytes) {
    throw Error(utils::message("WebGPU graph: ", what, " as ", dtype_name(dtype), dims, " needs ",
                               bytes, " bytes, the base buffer holds ", b.buffer_bytes));
  }
  return impl_->push_tensor(dtype, std::move(dims), b.buffer, b.buffer_bytes);
}

// --- nodes ----------------------------------------------------------------------------
void WebGPUGraph::add_node(const std::string& target, const std::vector<ValueRef>& args) {
  const OperatorRegistry& registry = OperatorRegistry::instance();
  if (!registry.has_op(target)) {
    throw Error(utils::message("WebGPU graph: no op registered for target '", target, "' (",
                               registry.targets().size(), " targets are registered)"));
  }
  // Errors the runtime raises while the handler builds name the op (e.g. a buffer
  // above the device's limits).
  struct Building {
    std::string& slot;
    ~Building() { slot.clear(); }
  } building{impl_->building};
  impl_->building = target;
  impl_->node_args.clear();
  for (ValueRef a : args) {
    // an invalid ref is reported by the handler that reads it
    if (a < 0 || static_cast<size_t>(a) >= impl_->values.size()) continue;
    impl_->node_args.push_back(a);
    if (type_of(a) == ValueType::ValueList) {
      for (ValueRef item : get_value_list(a)) impl_->node_args.push_back(item);
    }
  }
  const size_t first = impl_->commands.size();
  registry.get_op(target)(*this, args);
  impl_->node_args.clear();
  ++impl_->num_nodes;
  // A node that reads a SymInt (a position, a sequence length) rewrites its params when the
  // SymInt changes, i.e. between executes: its commands never compute constants, even
  // where they read only constants (the RoPE table rows at start_pos).
  bool symbolic = false;
  for (ValueRef a : args) {
    symbolic = symbolic || type_of(a) == ValueType::SymInt;
    if (type_of(a) == ValueType::ValueList) {
      for (ValueRef item : get_value_list(a))
        symbolic = symbolic || type_of(item) == ValueType::SymInt;
    }
  }
  for (size_t i = first; symbolic && i < impl_->commands.size(); ++i) {
    impl_->commands[i].per_execute = true;
  }
}

// --- resizing --------------------------------------------------------------------------------
void WebGPUGraph::add_resize_hook(std::function<void(WebGPUGraph&)> hook) {
  if (!hook) throw Error("WebGPU graph: add_resize_hook with an empty function");
  impl_->resize_hooks.push_back({std::move(hook), impl_->node_args});
}

void WebGPUGraph::set_input_dims(ValueRef tensor, std::vector<int64_t> dims) {
  Tensor& t = get_tensor(tensor);
  bool fits = dims.size() == t.max_dims.size();
  for (size_t i = 0; fits && i < dims.size(); ++i) {
    fits = dims[i] >= 0 && dims[i] <= t.max_dims[i];
  }
  if (!fits) {
    throw Error(utils::message("WebGPU graph: value ", tensor,
                               " new dims do not fit its max dims (got ", dims, ", expected rank ",
                               t.max_dims.size(), " and each dim within ", t.max_dims, ")"));
  }
  if (t.live_dims != dims) impl_->resize_pending.insert(tensor);
  t.live_dims = std::move(dims);
}

void WebGPUGraph::resize_tensor(ValueRef tensor, std::vector<int64_t> dims) {
  Tensor& t = get_tensor(tensor);
  const std::string what = utils::message("value ", tensor);
  const uint64_t bytes = static_cast<uint64_t>(checked_numel(dims, what)) * dtype_size(t.dtype);
  if (bytes > t.buffer_bytes) {
    throw Error(utils::message("WebGPU graph: ", what, " resized to ", dtype_name(t.dtype), dims,
                               " needs ", bytes, " bytes, its buffer holds ", t.buffer_bytes,
                               " (max dims ", t.max_dims, ")"));
  }
  t.live_dims = std::move(dims);
}

void WebGPUGraph::resize_input(ValueRef tensor, std::vector<int64_t> dims) {
  set_input_dims(tensor, std::move(dims));
  propagate_resize();
}

// What a resize hook can change of a value: a tensor's live dims, a SymInt's value.
std::vector<int64_t> WebGPUGraph::Impl::resize_state(ValueRef ref) const {
  const Value& v = value(ref);
  if (v.type == ValueType::Tensor) return std::get<Tensor>(v.data).live_dims;
  if (v.type == ValueType::SymInt) return {std::get<int64_t>(v.data)};
  return {};
}

void WebGPUGraph::propagate_resize() {
  const auto t0 = Clock::now();
  Impl& g = *impl_;
  // changed[ref]: the value changed since the last propagate_resize, or a hook before
  // changed it; hooks run in the order their nodes were added, so every value a hook
  // reads is final when it runs
  std::vector<bool> changed(g.values.size(), false);
  for (ValueRef ref : g.resize_pending) changed[ref] = true;
  g.resize_pending.clear();
  std::vector<std::vector<int64_t>> before;
  for (auto& hook : g.resize_hooks) {
    const bool reads_a_change =
        hook.args.empty() ||
        std::any_of(hook.args.begin(), hook.args.end(), [&](ValueRef a) { return changed[a]; });
    if (!reads_a_change) continue;
    before.clear();
    for (ValueRef a : hook.args) before.push_back(g.resize_state(a));
    hook.run(*this);
    for (size_t i = 0; i < hook.args.size(); ++i) {
      if (g.resize_state(hook.args[i]) != before[i]) changed[hook.args[i]] = true;
    }
  }
  g.resize_pending.clear();  // what the hooks set (SymInts they compute) was seen above
  g.resize_seconds += seconds_since(t0);
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
