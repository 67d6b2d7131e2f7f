// WebGPUGraph's private state, shared by values.cpp, graph.cpp, dispatch.cpp, execute.cpp
// and constants.cpp.
#pragma once

#include <webgpu.h>

#include <chrono>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "constant_plan.h"
#include "pipeline_cache.h"
#include "webgpu_delegate/device.h"
#include "webgpu_delegate/wgpu_handle.h"
#include "webgpu_delegate/graph.h"

namespace webgpu_delegate {

// One entry of the value table. Int and SymInt both hold an int64_t; `type`
// tells them apart.
struct Value {
  ValueType type = ValueType::Null;
  std::variant<std::monostate, int64_t, double, bool, std::string, std::vector<int64_t>,
               std::vector<double>, std::vector<bool>, std::vector<ValueRef>, Tensor>
      data;
};

// A recorded compute dispatch. A Copy is a dispatch of the runtime's copy kernel that
// also remembers its tensors, so update_copy can re-check them for a new size.
struct Command {
  enum class Kind : uint8_t { Dispatch, Copy };
  Kind kind = Kind::Dispatch;
  const PipelineEntry* pipeline = nullptr;
  Handle<WGPUBindGroup> bind_group;
  Handle<WGPUBuffer> uniform;   // null when the kernel takes no params
  std::vector<uint8_t> params;  // the bytes the uniform must hold
  bool params_dirty = false;
  utils::Grid grid;
  // Copy only
  ValueRef src = -1;
  ValueRef dst = -1;
  CommandAccess access;   // the tensors it reads and writes
  bool constant = false;  // computes a constant: runs once, and again only when stale
  bool active = true;     // set_dispatch_active: left out of records while false
  // set_dispatch_active was called, or its node reads a SymInt: its params may change
  // between executes, so it is never a constant command
  bool per_execute = false;
  bool stale = true;  // its params, grid or inputs changed since it last ran
  uint64_t runs = 0;  // times recorded into a submit (executes and constant runs)
};

using Clock = std::chrono::steady_clock;

// Host seconds since t0 (the ExecuteStats timings).
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct WebGPUGraph::Impl {
  explicit Impl(Device& d) : device(d) {}

  Device& device;
  // A deque so Tensor& and other references stay valid while values are added.
  std::deque<Value> values;
  std::vector<Handle<WGPUBuffer>> owned_buffers;
  // add_shared_tensor's buffers by key: the largest so far (one of owned_buffers).
  struct SharedBuffer {
    WGPUBuffer buffer = nullptr;
    uint64_t bytes = 0;
  };
  std::map<std::string, SharedBuffer> shared_buffers;
  // Dummy buffers, by (bytes, ordinal among a dispatch's dummies): reused across
  // dispatches, never twice within one.
  std::map<std::pair<uint64_t, size_t>, Handle<WGPUBuffer>> dummies;
  std::vector<Command> commands;
  // A node's resize hook and the values it reads and writes: the node's args, value lists
  // expanded (empty for a hook added outside add_node: it always runs).
  struct ResizeHook {
    std::function<void(WebGPUGraph&)> run;
    std::vector<ValueRef> args;
  };
  std::vector<ResizeHook> resize_hooks;
  std::vector<ValueRef> node_args;  // the args of the node add_node is adding
  // Values whose dims, SymInt or host-read contents changed since propagate_resize last
  // ran (set_input_dims, set_symint, copy_in to a host-read tensor): it runs only the
  // hooks that read one of them or a value an earlier hook changed.
  std::set<ValueRef> resize_pending;
  // Tensors ops read on the host (read_on_host) and tensors device commands write; a host
  // write to one of the former awaits propagate_resize while it is in resize_pending.
  std::set<ValueRef> host_read;
  std::set<ValueRef> device_written;
  double resize_seconds = 0;  // propagate_resize's time since the last execute
  size_t num_nodes = 0;
  std::string building;        // the target of the node add_node is adding ("" otherwise)
  Handle<WGPUBuffer> staging;  // map-read buffer for copy_out
  uint64_t staging_bytes = 0;
  ExecuteStats stats;
  // Constants (mark_constant) and the commands that depend on them alone (constants.cpp).
  std::set<BufferId> constants;
  std::set<BufferId> host_written;      // every buffer copy_in wrote
  std::set<BufferId> constant_touched;  // buffers the constant commands read or write
  bool constants_once = true;           // set_constant_dispatches_once
  bool constant_plan_valid = false;
  // Buffers whose memory release_consumed_constants freed (the handles stay until the
  // graph goes, so no new buffer takes their identity); non-empty fixes the plan.
  std::set<BufferId> released;
  uint64_t released_bytes = 0;
  // Profiling (set_profiling): a query set of two timestamps per dispatch, the buffer
  // they resolve into, the kernel of each dispatch record() timed, and the sums.
  bool profiling = false;
  size_t dispatches_per_submit = 0;  // set_dispatches_per_submit; 0: one submit
  Handle<WGPUQuerySet> timestamps;
  uint32_t timestamp_capacity = 0;
  Handle<WGPUBuffer> timestamp_resolve;
  std::vector<std::pair<const std::string*, utils::Grid>> timed_kernels;
  std::map<std::string, KernelTime> kernel_times;
  std::map<std::string, KernelTime> kernel_grid_times;  // by "name [x, y, z]"

  const Value& value(ValueRef ref) const;
  std::vector<int64_t> resize_state(ValueRef ref) const;
  Value& value(ValueRef ref);
  ValueRef push(ValueType type, decltype(Value::data) data);
  // A tensor value of `dims` (its max and live dims) in `buffer` of `bytes`.
  ValueRef push_tensor(DType dtype, std::vector<int64_t> dims, WGPUBuffer buffer, uint64_t bytes);
  [[noreturn]] void type_error(ValueRef ref, const char* expected) const;
  template <class T>
  const T& get_as(ValueRef ref, ValueType type) const {
    const Value& v = value(ref);
    if (v.type != type) type_error(ref, value_type_name(type));
    return std::get<T>(v.data);
  }
  // "WebGPU <target>: " while add_node runs a handler, "WebGPU <fallback>: " otherwise.
  std::string prefix(const std::string& fallback) const;
  Handle<WGPUBuffer> create_buffer(uint64_t bytes, WGPUBufferUsage usage, const std::string& what);
  WGPUBuffer dummy(uint64_t bytes, size_t ordinal);
  // add_dispatch's steps (dispatch.cpp): the params bytes and their uniform buffer, each
  // binding's buffer (EntryBuilder), the bind group of those entries.
  class EntryBuilder;
  void bind_params(Command& cmd, const std::string& kernel, const void* params, size_t params_size);
  Handle<WGPUBindGroup> create_bind_group(const std::string& kernel, const PipelineEntry& pipeline,
                                          const std::vector<WGPUBindGroupEntry>& entries);
  Command& command(DispatchId id, Command::Kind kind, const char* caller);
  // Decides which commands are constant when something changed since the last plan;
  // a new plan runs every constant command again.
  void plan_constants();
  // copy_in wrote `nbytes` of `data` into tensor `ref`: kept when an op reads it on the host.
  void note_host_values(ValueRef ref, const void* data, size_t nbytes);
  // copy_in wrote `buffer`: a constant command that touches it is planned again.
  void note_host_write(BufferId buffer);
  // Throws when release_consumed_constants freed the tensor's buffer; `what` names the call.
  void check_not_released(ValueRef tensor, const char* what) const;
  // Per command, whether it is a constant command the next record runs: a stale one, or
  // one reading what such a command writes. Throws, naming the kernel, when one of them
  // touches a buffer release_consumed_constants freed.
  std::vector<bool> constant_reruns() const;
  // Records the commands into `encoder` in order: every one (execute) or the constant
  // ones only; constant commands not in `reruns` are left out. With dispatches_per_submit,
  // submits the encoder as it fills (n / 4, n / 2, then n dispatches) and goes on in a
  // new one.
  void record(Handle<WGPUCommandEncoder>& encoder, bool constants_only,
              const std::vector<bool>& reruns, ExecuteStats& stats);
  // Uploads rewritten uniforms, plans the constants, records (every command or the
  // constant ones), submits and waits; the constant commands that ran are then fresh.
  ExecuteStats run(bool constants_only, const char* what);
  // Copies `nbytes` of `src` (a CopySrc buffer) to host memory through the staging buffer.
  void read_back(WGPUBuffer src, void* data, size_t nbytes, const std::string& context);
  // Profiling: room for two timestamps per command; after the run, the timed
  // dispatches' GPU time added to kernel_times.
  void reserve_timestamps(size_t commands);
  void add_kernel_times(const std::string& context);
};

// "float32[2, 3]"
std::string describe_tensor(const Tensor& t);
// Bytes a buffer for `bytes` of data occupies: at least 4, a multiple of 4.
uint64_t buffer_size_for(uint64_t bytes);
// Product of dims, with an Error (naming `what`) on negative dims or overflow.
int64_t checked_numel(const std::vector<int64_t>& dims, const std::string& what);

}  // namespace webgpu_delegate
