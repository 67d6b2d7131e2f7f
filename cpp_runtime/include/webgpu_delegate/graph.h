// The graph the generated op handlers build into: a value table in the
// ExecuTorch WebGPU style, dispatch recording, graph-owned uniforms and
// resize hooks. Handlers see only this header, utils.h and webgpu.h.
#pragma once

#include <webgpu.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "webgpu_delegate/kernel_source.h"
#include "webgpu_delegate/utils.h"

namespace webgpu_delegate {

class Device;

enum class DType : uint8_t { Float32, Int32, Int64, Bool, Float16, UInt8, Int8 };
const char* dtype_name(DType dtype);  // "float32", "int32", ... (spec dtype names)
size_t dtype_size(DType dtype);

enum class ValueType : uint8_t {
  Null,
  Int,
  Double,
  Bool,
  String,
  IntList,
  DoubleList,
  BoolList,
  ValueList,
  SymInt,
  Tensor,
};
const char* value_type_name(ValueType type);

using ValueRef = int32_t;

struct Tensor {
  DType dtype = DType::Float32;
  std::vector<int64_t> max_dims;   // the shape the buffer was allocated for
  std::vector<int64_t> live_dims;  // the current shape (changes on resize)
  WGPUBuffer buffer = nullptr;     // owned by the graph; >= 4 bytes, multiple of 4
  uint64_t buffer_bytes = 0;
  // A tensor an op reads on the host (WebGPUGraph::read_on_host): its elements as the
  // host last wrote them (copy_in), zeros before that, a constant's as uploaded.
  std::vector<int64_t> host_values;

  const std::vector<int64_t>& dims() const { return live_dims; }
  int64_t rank() const { return static_cast<int64_t>(live_dims.size()); }
  int64_t numel() const { return utils::prod(live_dims); }
  uint64_t nbytes() const { return static_cast<uint64_t>(numel()) * dtype_size(dtype); }
  // Python-style index (negative counts from the end); throws when out of range.
  int64_t dim(int64_t i) const { return utils::at(live_dims, i); }
  const std::vector<int64_t>& values() const { return host_values; }
};

// Optional WebGPU features a kernel may need (codegen/language/features.py): the device
// requests each one its adapter offers, and a route needing one is taken only when the
// device has it.
enum class Feature : uint8_t { ShaderF16, Subgroups };
inline constexpr Feature kFeatures[] = {Feature::ShaderF16, Feature::Subgroups};
const char* feature_name(Feature feature);  // WebGPU's name: "shader-f16", "subgroups"

// A pipeline-overridable constant's value (WGSL `override`).
struct OverrideValue {
  const char* name;
  double value;
};

// One entry of a bind group, in binding-index order.
struct Binding {
  enum class Kind : uint8_t { Params, Tensor, Dummy };
  Kind kind = Kind::Params;
  ValueRef tensor = -1;

  static Binding params() { return Binding{Kind::Params, -1}; }
  static Binding of(ValueRef tensor) { return Binding{Kind::Tensor, tensor}; }
  // Stands in for an absent optional tensor: the kernel's binding table says how large.
  static Binding dummy() { return Binding{Kind::Dummy, -1}; }
};

using DispatchId = size_t;
using OpHandler = void (*)(class WebGPUGraph& graph, const std::vector<ValueRef>& args);

struct Limits {
  uint32_t max_workgroups_per_dimension = 65535;
  uint32_t max_invocations_per_workgroup = 256;
  uint32_t max_workgroup_size[3] = {256, 256, 64};
  uint64_t max_storage_buffer_binding_size = 128ull << 20;
  uint64_t max_buffer_size = 256ull << 20;
  uint64_t max_uniform_buffer_binding_size = 64ull << 10;
  uint32_t max_storage_buffers_per_shader_stage = 8;
  uint32_t max_compute_workgroup_storage_size = 16384;
};

// Where the time of the last execute() went (host clock, seconds).
struct ExecuteStats {
  size_t dispatches = 0;      // compute dispatches recorded (constant ones only when they ran)
  size_t copies = 0;          // copies recorded (add_copy; constant ones only when they ran)
  size_t constant_runs = 0;   // of those, constant dispatches and copies (see mark_constant)
  double upload_seconds = 0;  // rewritten uniforms written to the queue (while recording)
  double record_seconds = 0;  // command encoding (compute passes: dispatches and copies)
  double submit_seconds = 0;  // finish + submit (of the last command buffer)
  size_t submits = 0;         // command buffers submitted (set_dispatches_per_submit)
  double wait_seconds = 0;    // until the queue reported the work done
  double resize_seconds = 0;  // propagate_resize calls since the execute before (new shapes)
  double read_seconds = 0;    // copy_out calls after it (read-back: copy, map, memcpy)

  // Field by field (several graphs' last executes, summed).
  ExecuteStats& operator+=(const ExecuteStats& o) {
    dispatches += o.dispatches;
    copies += o.copies;
    constant_runs += o.constant_runs;
    upload_seconds += o.upload_seconds;
    record_seconds += o.record_seconds;
    submit_seconds += o.submit_seconds;
    submits += o.submits;
    wait_seconds += o.wait_seconds;
    resize_seconds += o.resize_seconds;
    read_seconds += o.read_seconds;
    return *this;
  }
};

// GPU time of one kernel over the profiled executes (WebGPUGraph::set_profiling).
struct KernelTime {
  uint64_t dispatches = 0;  // its dispatches (copies: "copy_words") that ran
  double gpu_ms = 0;        // their GPU time, summed (timestamp queries)
};

class WebGPUGraph {
 public:
  explicit WebGPUGraph(Device& device);
  ~WebGPUGraph();
  WebGPUGraph(const WebGPUGraph&) = delete;
  WebGPUGraph& operator=(const WebGPUGraph&) = delete;

  // --- values ---------------------------------------------------------------
  ValueRef add_tensor(DType dtype, std::vector<int64_t> dims);
  // A tensor in the buffer the graph shares among every caller passing `key` (an op's
  // scratch that no other op reads: ops run one after another). The buffer is the
  // largest asked for so far; a larger ask gets a new one, which later asks share.
  ValueRef add_shared_tensor(const std::string& key, DType dtype, std::vector<int64_t> dims);
  // A tensor that aliases another's buffer (the same memory object).
  ValueRef add_tensor_view(ValueRef base, std::vector<int64_t> dims);
  // The same with its own element type (a shared memory object of a planned
  // graph holds tensors of different dtypes at different times).
  ValueRef add_tensor_view(ValueRef base, std::vector<int64_t> dims, DType dtype);
  ValueRef add_null();
  ValueRef add_int(int64_t v);
  ValueRef add_double(double v);
  ValueRef add_bool(bool v);
  ValueRef add_string(std::string v);
  ValueRef add_int_list(std::vector<int64_t> v);
  ValueRef add_double_list(std::vector<double> v);
  ValueRef add_bool_list(std::vector<bool> v);
  ValueRef add_value_list(std::vector<ValueRef> v);
  ValueRef add_symint(int64_t v);

  size_t num_values() const;
  ValueType type_of(ValueRef ref) const;
  bool is_null(ValueRef ref) const;

  // Typed getters: throw Error naming the value, the expected and the actual type.
  Tensor& get_tensor(ValueRef ref);
  const Tensor& get_tensor(ValueRef ref) const;
  int64_t get_int(ValueRef ref) const;
  double get_double(ValueRef ref) const;
  bool get_bool(ValueRef ref) const;
  const std::string& get_string(ValueRef ref) const;
  const std::vector<int64_t>& get_int_list(ValueRef ref) const;
  const std::vector<double>& get_double_list(ValueRef ref) const;
  const std::vector<bool>& get_bool_list(ValueRef ref) const;
  const std::vector<ValueRef>& get_value_list(ValueRef ref) const;
  int64_t get_symint(ValueRef ref) const;
  void set_symint(ValueRef ref, int64_t v);
  // A tensor whose values an op reads on the host (select_as_symint's input_pos): from
  // now on copy_in keeps its elements in `host_values` and the next execute runs the
  // resize hooks first, so SymInts computed from it follow the host's data with no GPU
  // readback. Only a tensor that no device command writes qualifies (a graph input or a
  // constant); its int32 elements are kept. `op` and `arg` name the reader in errors.
  const Tensor& read_on_host(ValueRef tensor, const char* op, const char* arg);
  // Int or SymInt (schema `SymInt`), Int or Double (schema `Scalar`).
  int64_t get_int_or_symint(ValueRef ref) const;
  double get_scalar(ValueRef ref) const;
  // Whether two tensors are backed by the same buffer.
  bool same_buffer(ValueRef a, ValueRef b) const;

  // --- building ---------------------------------------------------------------
  // Looks the target up in the operator registry (Error naming it if unknown). The
  // commands of a node that reads a SymInt run on every execute (never as constants).
  void add_node(const std::string& target, const std::vector<ValueRef>& args);

  const Limits& limits() const;
  // Whether the device has an optional feature (routes choose by it).
  bool has_feature(Feature feature) const;

  // Records a compute dispatch; `params` is copied into a graph-owned uniform
  // buffer bound wherever `bindings` holds Binding::params().
  DispatchId add_dispatch(const KernelSource& kernel, std::vector<OverrideValue> overrides,
                          std::vector<Binding> bindings, const void* params, size_t params_size,
                          utils::Grid grid);
  // Switches a recorded dispatch on or off: an inactive one is left out of executes (its
  // pipeline stays): the prefill and decode routes of one op, chosen on each resize
  // (Dispatch(active=...) in a spec). A switched dispatch never computes a constant.
  void set_dispatch_active(DispatchId id, bool active);
  // Rewrites a dispatch's uniform and grid (resize hooks).
  void update_dispatch(DispatchId id, const void* params, size_t params_size, utils::Grid grid);
  // Records a flat copy of `nbytes` from the start of src to dst: a dispatch of the
  // runtime's copy kernel (src/copy_words.wgsl). src and dst must not share a buffer.
  DispatchId add_copy(ValueRef src, ValueRef dst, uint64_t nbytes);
  void update_copy(DispatchId id, uint64_t nbytes);
  // Runs in propagate_resize, in the order the hooks were added, when one of the values
  // its node reads or writes (the node's args) changed since the last propagate_resize:
  // new live dims or SymInt value, host-read contents, or a change an earlier hook made.
  // A hook added outside add_node always runs.
  void add_resize_hook(std::function<void(WebGPUGraph&)> hook);

  // --- running ------------------------------------------------------------------
  void copy_in(ValueRef tensor, const void* data, size_t nbytes);
  // copy_in of bytes outside this process's memory (the browser build's weights stay in
  // a JavaScript ArrayBuffer): `write(queue, buffer)` puts the tensor's nbytes at the start
  // of its buffer (in whole 4-byte units); checked and accounted for as copy_in is.
  void copy_in_from(ValueRef tensor, size_t nbytes,
                    const std::function<void(WGPUQueue queue, WGPUBuffer buffer)>& write);
  void copy_out(ValueRef tensor, void* data, size_t nbytes);
  // Sets an input's live dims (must fit its max dims) and runs the resize hooks.
  void resize_input(ValueRef tensor, std::vector<int64_t> dims);
  // Sets live dims without running the hooks: resize several inputs (and
  // SymInts), then call propagate_resize() once. Same rank as the max dims,
  // each dim at most its max dim.
  void set_input_dims(ValueRef tensor, std::vector<int64_t> dims);
  // For resize hooks: a tensor's new live dims, checked against its buffer.
  void resize_tensor(ValueRef tensor, std::vector<int64_t> dims);
  void propagate_resize();
  // Whether a copy_in into a tensor read on the host (read_on_host) has not yet been
  // followed by propagate_resize; execute() runs it first then.
  bool host_values_pending() const;
  // Records every dispatch into one command encoder, submits and waits. Constant
  // dispatches (mark_constant) are left out once they have run.
  void execute();

  // --- constants ------------------------------------------------------------------
  // Marks a tensor whose data (copy_in) stays as it is: a constant of the graph. A
  // dispatch or copy that reads only constants (or what earlier such dispatches
  // wrote) and writes only buffers that nothing else touches computes a constant
  // too: it runs once and is left out of later executes until its params, grid or
  // inputs change (update_dispatch, copy_in of a buffer it touches). The exact rule:
  // src/constant_plan.h. A graph without constants runs every dispatch every time.
  void mark_constant(ValueRef tensor);
  bool is_constant(ValueRef tensor) const;
  // On (the default): constant dispatches run once. Off: every execute runs every
  // dispatch (the behaviour before constants were kept; for timing both).
  void set_constant_dispatches_once(bool once);
  // Runs the constant dispatches that have not run yet, now (execute() runs them
  // otherwise); a loader calls it so the first execute costs no more than the next.
  void run_constant_dispatches();
  // After run_constant_dispatches: frees the GPU memory of every buffer that only
  // constant dispatches touch (a conv's or linear's raw weights once packed, a pack no
  // route reads), except the tensors in `keep` (a graph's outputs). What executes read
  // stays; those would stay beside it for nothing. From then on the constant plan is
  // fixed: a copy_in or copy_out of a freed buffer, set_constant_dispatches_once,
  // mark_constant, or a change that would run a constant dispatch again throws an Error
  // naming it. Returns the bytes freed.
  uint64_t release_consumed_constants(const std::vector<ValueRef>& keep);
  // The bytes release_consumed_constants freed, in all.
  uint64_t released_constant_bytes() const;

  // Statistics for tests and benchmarks.
  size_t num_dispatches() const;  // compute dispatches recorded
  size_t num_copies() const;      // add_copy calls recorded
  size_t num_nodes() const;       // add_node calls that succeeded
  // Distinct shader modules this graph's dispatches use (each compiled once
  // per device, however many dispatches share it).
  size_t num_shader_modules() const;
  size_t num_pipelines() const;  // distinct pipelines this graph's dispatches use
  const ExecuteStats& last_execute_stats() const;
  // Dispatches and copies that compute constants (as the next execute will plan them).
  size_t num_constant_dispatches();
  // Times each kernel ran (every execute and constant run so far), by kernel name;
  // copies count as "copy_words".
  std::map<std::string, uint64_t> kernel_runs() const;
  // The kernel name of each recorded dispatch that is active, in recording order.
  std::vector<std::string> dispatch_kernels() const;
  // Profiling: from now on each execute records every dispatch in a compute pass of its
  // own with timestamp queries around it, and kernel_times() sums the GPU time per
  // kernel name. Needs a device with timestamp-query (requested wherever offered); the
  // separate passes add barriers, so a profiled execute runs slower than a plain one.
  void set_profiling(bool on);
  // 0 (the default): an execute records every dispatch into one command buffer, then
  // submits it. n: it submits the dispatches (copies included) as they are recorded, so
  // the GPU starts on them while the host records the rest (record_seconds then counts
  // those submits): the first n / 4 (at least 1), then n / 2, then each n.
  void set_dispatches_per_submit(size_t n);
  const std::map<std::string, KernelTime>& kernel_times() const;
  // The same times by kernel and grid, "name [x, y, z]" (one op's shapes apart).
  const std::map<std::string, KernelTime>& kernel_grid_times() const;

  Device& device() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// What a loader may assume about the buffers of an op's arguments, beyond its handler.
enum class OpAliasing : uint8_t {
  // Reads its input tensors and writes its outputs only.
  None,
  // Its output (last argument) holds the leading bytes of its first argument unchanged (a
  // view, a squeeze, a flat clone): the two may share one buffer, and then its handler
  // records nothing.
  OutputMayShareInput,
  // Writes tensor arguments other than its outputs in place (a KV cache update; which
  // ones: OperatorRegistry::written_args): none of them may share a buffer with another.
  WritesInputs,
};

// Target name -> handler and aliasing. A duplicate registration is an error that names
// the target and both registrants; an unknown target is an error naming it.
class OperatorRegistry {
 public:
  static OperatorRegistry& instance();
  // written_args: a WritesInputs op's arguments it writes in place, by position (at least
  // one); empty for the other aliasings.
  void register_op(const std::string& target, OpHandler handler, const char* registrant,
                   OpAliasing aliasing, std::vector<size_t> written_args = {});
  bool has_op(const std::string& target) const;
  OpHandler get_op(const std::string& target) const;
  OpAliasing aliasing(const std::string& target) const;
  const std::vector<size_t>& written_args(const std::string& target) const;
  std::vector<std::string> targets() const;

 private:
  struct Entry {
    OpHandler handler;
    std::string registrant;
    OpAliasing aliasing;
    std::vector<size_t> written_args;
  };
  const Entry& entry(const std::string& target) const;
  std::vector<std::pair<std::string, Entry>> entries_;
};

}  // namespace webgpu_delegate

#define WEBGPU_CONCAT_INNER(a, b) a##b
#define WEBGPU_CONCAT(a, b) WEBGPU_CONCAT_INNER(a, b)
// Registers `handler` for the target spelled `ns.op.overload` at static init, with the
// OpAliasing value named by `aliasing` (None or OutputMayShareInput).
#define WEBGPU_REGISTER_OP(target, handler, aliasing)                         \
  static const bool WEBGPU_CONCAT(webgpu_registered_, __COUNTER__) = [] {     \
    ::webgpu_delegate::OperatorRegistry::instance().register_op(              \
        #target, handler, #handler, ::webgpu_delegate::OpAliasing::aliasing); \
    return true;                                                              \
  }()
// The same for an op that writes the arguments at the positions given in place
// (OpAliasing::WritesInputs).
#define WEBGPU_REGISTER_OP_WRITING(target, handler, ...)                                         \
  static const bool WEBGPU_CONCAT(webgpu_registered_, __COUNTER__) = [] {                        \
    ::webgpu_delegate::OperatorRegistry::instance().register_op(                                 \
        #target, handler, #handler, ::webgpu_delegate::OpAliasing::WritesInputs, {__VA_ARGS__}); \
    return true;                                                                                 \
  }()
