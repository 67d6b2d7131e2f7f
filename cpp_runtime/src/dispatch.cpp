// Recording dispatches into a WebGPUGraph: the handler's bindings checked against the
// kernel's generated binding table, the params uniform, the bind group; update_dispatch;
// flat copies (a dispatch of the runtime's own copy kernel).
#include <algorithm>
#include <cstring>
#include <limits>

#include "copy_words_wgsl.h"
#include "graph_impl.h"
#include "wgpu_util.h"

namespace webgpu_delegate {

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

namespace {

void check_grid(const Limits& limits, const std::string& kernel, const utils::Grid& grid) {
  const uint32_t max = limits.max_workgroups_per_dimension;
  if (grid.x > max || grid.y > max || grid.z > max) {
    throw Error(utils::message("WebGPU kernel ", kernel, ": dispatch grid ", grid.x, "x", grid.y,
                               "x", grid.z, " exceeds maxComputeWorkgroupsPerDimension ", max));
  }
}

// A kernel's features (KernelSource::features, comma-separated) must all be on the
// device: a handler takes a feature route only when they are, so this catches a
// hand-written caller before the shader compiler reports something obscure.
void check_features(const Device& device, const KernelSource& kernel, const std::string& name) {
  const std::string needed = kernel.features ? kernel.features : "";
  size_t start = 0;
  while (start < needed.size()) {
    const size_t comma = std::min(needed.find(',', start), needed.size());
    const std::string feature = needed.substr(start, comma - start);
    bool present = false;
    for (Feature f : kFeatures)
      present = present || (feature == feature_name(f) && device.has_feature(f));
    if (!present) {
      throw Error(utils::message("WebGPU kernel ", name, ": needs the device feature ", feature,
                                 ", which this device lacks (it has: ", device.feature_names(),
                                 ")"));
    }
    start = comma + 1;
  }
}

std::string describe_bindings(const std::vector<KernelBinding>& declared) {
  std::string s;
  for (size_t i = 0; i < declared.size(); ++i) {
    s += utils::message(s.empty() ? "" : ", ", i, ": ", declared[i].name, " ",
                        binding_kind_name(declared[i].kind));
  }
  return s.empty() ? "none" : s;
}

// One entry per declared binding, and params bytes exactly when Binding::params() is
// bound, within the uniform limit. Returns whether the params are bound.
bool check_bindings(const std::string& kernel, const std::vector<KernelBinding>& declared,
                    const std::vector<Binding>& bindings, const void* params, size_t params_size,
                    const Limits& limits) {
  if (bindings.size() != declared.size()) {
    throw Error(utils::message("WebGPU kernel ", kernel, ": the handler passes ", bindings.size(),
                               " bindings, the kernel declares ", declared.size(), " (",
                               describe_bindings(declared), ")"));
  }
  const bool binds_params = std::any_of(bindings.begin(), bindings.end(), [](const Binding& b) {
    return b.kind == Binding::Kind::Params;
  });
  if (binds_params && (params == nullptr || params_size == 0)) {
    throw Error(
        utils::message("WebGPU kernel ", kernel, ": a params binding without params bytes"));
  }
  if (!binds_params && params_size != 0) {
    throw Error(utils::message("WebGPU kernel ", kernel, ": ", params_size,
                               " params bytes but no Binding::params() to bind them"));
  }
  if (params_size > limits.max_uniform_buffer_binding_size) {
    throw Error(utils::message("WebGPU kernel ", kernel, ": params of ", params_size,
                               " bytes exceed maxUniformBufferBindingSize ",
                               limits.max_uniform_buffer_binding_size));
  }
  return binds_params;
}

}  // namespace

// The bind group entries of one dispatch, binding by binding: the params uniform, a
// tensor's buffer, or a dummy (an absent optional tensor, or one the kernel never reads).
class WebGPUGraph::Impl::EntryBuilder {
 public:
  EntryBuilder(Impl& g, const std::string& kernel, const std::vector<KernelBinding>& declared,
               Command& cmd)
      : g_(g), kernel_(kernel), declared_(declared), cmd_(cmd) {}

  // The tensors bound read_write (valid after build).
  const std::vector<ValueRef>& written() const { return written_; }

  std::vector<WGPUBindGroupEntry> build(const std::vector<Binding>& bindings) {
    std::vector<WGPUBindGroupEntry> entries;
    for (size_t i = 0; i < bindings.size(); ++i) {
      WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
      e.binding = static_cast<uint32_t>(i);
      e.buffer = buffer(i, bindings[i]);
      e.offset = 0;
      e.size = WGPU_WHOLE_SIZE;
      entries.push_back(e);
    }
    return entries;
  }

 private:
  // "WebGPU kernel <kernel>: binding <i> (<name>, <kind>)"
  std::string where(size_t i) const {
    const KernelBinding& d = declared_[i];
    return utils::message("WebGPU kernel ", kernel_, ": binding ", i, " (", d.name, ", ",
                          binding_kind_name(d.kind), ")");
  }

  WGPUBuffer buffer(size_t i, const Binding& b) {
    const KernelBinding& d = declared_[i];
    const bool uniform = d.kind == KernelBinding::Kind::Uniform;
    if (b.kind == Binding::Kind::Params) {
      if (!uniform) {
        throw Error(utils::message(where(i), " is bound to the params uniform, expected a tensor"));
      }
      return cmd_.uniform.get();
    }
    if (uniform) {
      const std::string bound =
          b.kind == Binding::Kind::Dummy ? "a dummy" : utils::message("tensor value ", b.tensor);
      throw Error(utils::message(where(i), " is bound to ", bound, ", expected Binding::params()"));
    }
    if (b.kind == Binding::Kind::Tensor && d.read) {
      const Tensor& t = g_.get_as<Tensor>(b.tensor, ValueType::Tensor);
      record_access(i, b.tensor, t.buffer);
      check_binding_size(i, b, t.buffer_bytes);
      return t.buffer;
    }
    // a Dummy, or a tensor the kernel never names: nothing to read, nothing to keep alive
    if (b.kind == Binding::Kind::Dummy) {
      cmd_.access.writes_dummy |= d.kind == KernelBinding::Kind::Storage;
    }
    WGPUBuffer dummy = g_.dummy(d.dummy_bytes, dummy_ordinal_++);
    check_binding_size(i, b, buffer_size_for(d.dummy_bytes));
    return dummy;
  }

  // A written buffer bound twice would alias within the dispatch; the command records
  // what it reads and writes (the constant plan reads them).
  void record_access(size_t i, ValueRef tensor, WGPUBuffer buffer) {
    const bool writes = declared_[i].kind == KernelBinding::Kind::Storage;
    for (const auto& [other, at] : bound_) {
      if (other == buffer && (writes || declared_[at].kind == KernelBinding::Kind::Storage)) {
        throw Error(utils::message(
            where(i), " and binding ", at, " share one buffer (value ", tensor,
            ") and one of them is read_write; a dispatch cannot alias a written buffer"));
      }
    }
    if (writes && g_.host_read.count(tensor)) {
      throw Error(utils::message(where(i), " writes tensor value ", tensor,
                                 ", which an op reads on the host (read_on_host); its host "
                                 "values would go stale"));
    }
    bound_.emplace_back(buffer, i);
    (writes ? cmd_.access.writes : cmd_.access.reads).push_back(buffer);
    if (writes) written_.push_back(tensor);
  }

  void check_binding_size(size_t i, const Binding& b, uint64_t bytes) const {
    const uint64_t limit = g_.device.limits().max_storage_buffer_binding_size;
    if (bytes <= limit) return;
    const std::string value =
        b.kind == Binding::Kind::Tensor
            ? utils::message("tensor value ", b.tensor, " (",
                             describe_tensor(g_.get_as<Tensor>(b.tensor, ValueType::Tensor)), ")")
            : "a dummy binding";
    throw Error(utils::message(
        g_.prefix("kernel " + kernel_), value, " is too large for one storage binding (",
        declared_[i].name, " of kernel ", kernel_, ", binding ", i, ") (got ", bytes,
        " bytes, expected at most maxStorageBufferBindingSize ", limit, ")"));
  }

  Impl& g_;
  const std::string& kernel_;
  const std::vector<KernelBinding>& declared_;
  Command& cmd_;
  std::vector<std::pair<WGPUBuffer, size_t>> bound_;  // (buffer, binding) of tensors bound
  std::vector<ValueRef> written_;  // tensors at read_write bindings
  size_t dummy_ordinal_ = 0;
};

void WebGPUGraph::Impl::bind_params(Command& cmd, const std::string& kernel, const void* params,
                                    size_t params_size) {
  const auto* bytes = static_cast<const uint8_t*>(params);
  cmd.params.assign(bytes, bytes + params_size);
  cmd.params.resize(round_up(params_size, 4), 0);
  cmd.params_dirty = true;
  cmd.uniform = create_buffer(std::max<uint64_t>(16, round_up(params_size, 16)),
                              WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
                              "the params of kernel " + kernel);
}

Handle<WGPUBindGroup> WebGPUGraph::Impl::create_bind_group(
    const std::string& kernel, const PipelineEntry& pipeline,
    const std::vector<WGPUBindGroupEntry>& entries) {
  WGPUBindGroupDescriptor desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  desc.label = string_view(kernel);
  desc.layout = pipeline.shader->bind_group_layout.get();
  desc.entryCount = entries.size();
  desc.entries = entries.data();
  device.push_error_scopes();
  Handle<WGPUBindGroup> group{wgpuDeviceCreateBindGroup(device.handle(), &desc)};
  const std::string errors = device.pop_error_scopes();
  if (!errors.empty() || !group) {
    throw Error(utils::message("WebGPU kernel ", kernel, ": bind group creation failed: ",
                               errors.empty() ? "no bind group returned" : errors));
  }
  return group;
}

DispatchId WebGPUGraph::add_dispatch(const KernelSource& kernel,
                                     std::vector<OverrideValue> overrides,
                                     std::vector<Binding> bindings, const void* params,
                                     size_t params_size, utils::Grid grid) {
  Impl& g = *impl_;
  const std::string name = kernel.name ? kernel.name : "<unnamed>";
  check_grid(limits(), name, grid);
  check_features(g.device, kernel, name);
  const PipelineEntry& pipeline = g.device.pipelines().get(kernel, overrides);
  const std::vector<KernelBinding>& declared = pipeline.shader->bindings;
  const bool binds_params = check_bindings(name, declared, bindings, params, params_size, limits());

  Command cmd;
  cmd.kind = Command::Kind::Dispatch;
  cmd.pipeline = &pipeline;
  cmd.grid = grid;
  if (binds_params) g.bind_params(cmd, name, params, params_size);
  Impl::EntryBuilder builder(g, name, declared, cmd);
  const auto entries = builder.build(bindings);
  cmd.bind_group = g.create_bind_group(name, pipeline, entries);
  g.commands.push_back(std::move(cmd));
  g.constant_plan_valid = false;
  g.device_written.insert(builder.written().begin(), builder.written().end());
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
    throw Error(utils::message("WebGPU kernel ", name, ": update_dispatch with ", params_size,
                               " params bytes, the dispatch was recorded with ", had));
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
    throw Error(utils::message("WebGPU graph: a copy of ", nbytes,
                               " bytes has more vec4s than a u32 counts"));
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
    throw Error(utils::message("WebGPU graph: copy from value ", src, " to value ", dst,
                               ", which share one buffer"));
  }
  const uint64_t rounded = round_up(nbytes, 16);  // the copy kernel moves whole vec4s
  if (rounded > s.buffer_bytes || rounded > d.buffer_bytes) {
    throw Error(utils::message("WebGPU graph: copy of ", nbytes, " bytes from value ", src, " (",
                               s.buffer_bytes, "-byte buffer) to value ", dst, " (", d.buffer_bytes,
                               "-byte buffer) does not fit"));
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

}  // namespace webgpu_delegate
