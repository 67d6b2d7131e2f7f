// The ExecuTorch BackendInterface of the WebGPU delegate, registered under the
// backend id ExecuTorch's Vulkan partitioner emits ("VulkanBackend"): a .pte
// lowered with that partitioner runs on the generated WebGPU handlers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "webgpu_delegate/graph.h"

namespace webgpu_delegate::executorch_backend {

inline constexpr const char* kBackendId = "VulkanBackend";

// ExecuTorch reports a failed init/execute as an error code only; the message
// (naming the op or value) of the most recent failure on this thread is here.
const std::string& last_error();

// Whether the static registration with the ExecuTorch runtime succeeded
// (linking this library registers the backend).
bool registered();

// The adapter the shared device runs on (creates the device when needed).
std::string device_description();

// Compute pipelines the shared device has created so far (all graphs together): a decode
// loop must not add any after its first step.
size_t pipelines_created();

// On (the default): each graph loaded from now on runs its constant dispatches (those
// that read only constants of the graph, such as a conv's weight pack; see
// WebGPUGraph::mark_constant) once, at load. Off: every execute runs every dispatch.
void set_constant_dispatches_once(bool once);

// On (the default): in each graph loaded from now on, a view's output (view_copy,
// squeeze_copy, ...) lives in its input's buffer and the view copies nothing (the loader's
// buffer plan, cpp_runtime/src/memory_plan.h). Off: each view copies into a buffer of its
// own, as ExecuTorch's memory plan has it (for timing both).
void set_views_share_buffers(bool share);

// On: each graph loaded from now on times every dispatch of its executes (not the
// constant dispatches run at load) with GPU timestamps (WebGPUGraph::set_profiling);
// DispatchCounts::kernel_times sums them. Loading fails where the device has no
// timestamp queries.
void set_profiling(bool on);

// Each graph loaded from now on submits an execute's dispatches in pieces as it records
// them, n / 4, n / 2, then each n (WebGPUGraph::set_dispatches_per_submit; default 64);
// 0: one submit.
void set_dispatches_per_submit(size_t n);

// What the graphs this backend loaded ran (destroyed ones included), for
// webgpu_pte_runner's report and the tests.
struct DispatchCounts {
  size_t graphs = 0;
  size_t constant_dispatches = 0;  // dispatches and copies that compute constants
  // GPU memory freed after load: the buffers only constant dispatches touch (raw weights
  // once packed; WebGPUGraph::release_consumed_constants)
  uint64_t freed_constant_bytes = 0;
  size_t last_execute = 0;  // dispatches and copies the last execute of each live graph ran
  std::map<std::string, uint64_t> kernel_runs;          // by kernel name, at load and in executes
  std::map<std::string, KernelTime> kernel_times;       // by kernel name, profiled executes
  std::map<std::string, KernelTime> kernel_grid_times;  // by "name [x, y, z]", the same
  ExecuteStats last_stats;  // the host's side of the last execute, summed over live graphs
};
DispatchCounts dispatch_counts();

}  // namespace webgpu_delegate::executorch_backend
