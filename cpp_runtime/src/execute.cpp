// Running a WebGPUGraph: uploading inputs, recording every command into one
// encoder, submitting, waiting, and reading outputs back.
#include <algorithm>
#include <cstring>
#include <set>

#include "graph_impl.h"
#include "wgpu_util.h"

namespace webgpu_delegate {
namespace {

// Finishes the encoder and submits its commands.
void submit(Device& device, Handle<WGPUCommandEncoder> encoder) {
  Handle<WGPUCommandBuffer> commands{wgpuCommandEncoderFinish(encoder.get(), nullptr)};
  WGPUCommandBuffer buffer = commands.get();
  wgpuQueueSubmit(device.queue(), 1, &buffer);
}

void check_transfer(const char* what, ValueRef ref, const Tensor& t, size_t nbytes) {
  if (nbytes != t.nbytes()) {
    throw Error(utils::message("WebGPU graph: ", what, " of value ", ref,
                               " has the wrong byte count (got ", nbytes, ", expected ", t.nbytes(),
                               " for ", describe_tensor(t), ")"));
  }
}

}  // namespace

void WebGPUGraph::copy_in(ValueRef tensor, const void* data, size_t nbytes) {
  const Tensor& t = get_tensor(tensor);
  check_transfer("copy_in", tensor, t, nbytes);
  impl_->check_not_released(tensor, "copy_in");
  impl_->note_host_write(t.buffer);
  impl_->note_host_values(tensor, data, nbytes);
  if (nbytes == 0) return;
  if (data == nullptr)
    throw Error(utils::message("WebGPU graph: copy_in of value ", tensor, " from null"));
  Device& device = impl_->device;
  if (nbytes % 4 == 0) {
    wgpuQueueWriteBuffer(device.queue(), t.buffer, 0, data, nbytes);
  } else {
    // Queue writes move multiples of 4 bytes; the buffer is rounded up to 4.
    std::vector<uint8_t> padded(round_up(nbytes, 4), 0);
    std::memcpy(padded.data(), data, nbytes);
    wgpuQueueWriteBuffer(device.queue(), t.buffer, 0, padded.data(), padded.size());
  }
  device.check_errors(utils::message("copy_in of value ", tensor));
}

void WebGPUGraph::copy_in_from(ValueRef tensor, size_t nbytes,
                               const std::function<void(WGPUQueue, WGPUBuffer)>& write) {
  const Tensor& t = get_tensor(tensor);
  check_transfer("copy_in", tensor, t, nbytes);
  impl_->check_not_released(tensor, "copy_in");
  impl_->note_host_write(t.buffer);
  if (nbytes == 0) return;
  write(impl_->device.queue(), t.buffer);
  impl_->device.check_errors(utils::message("copy_in of value ", tensor));
}

void WebGPUGraph::copy_out(ValueRef tensor, void* data, size_t nbytes) {
  const Tensor& t = get_tensor(tensor);
  check_transfer("copy_out", tensor, t, nbytes);
  impl_->check_not_released(tensor, "copy_out");
  if (nbytes == 0) return;
  if (data == nullptr)
    throw Error(utils::message("WebGPU graph: copy_out of value ", tensor, " to null"));
  const auto t0 = Clock::now();
  impl_->read_back(t.buffer, data, nbytes, utils::message("copy_out of value ", tensor));
  impl_->stats.read_seconds += seconds_since(t0);
}

void WebGPUGraph::Impl::read_back(WGPUBuffer src, void* data, size_t nbytes,
                                  const std::string& context) {
  const uint64_t bytes = round_up(nbytes, 4);
  if (staging_bytes < bytes) {
    staging.reset();
    staging_bytes = 0;
    staging = create_buffer(bytes, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                            "the read-back staging buffer");
    staging_bytes = bytes;
  }
  device.push_error_scopes();
  Handle<WGPUCommandEncoder> encoder{wgpuDeviceCreateCommandEncoder(device.handle(), nullptr)};
  wgpuCommandEncoderCopyBufferToBuffer(encoder.get(), src, 0, staging.get(), 0, bytes);
  submit(device, std::move(encoder));

  StatusResult<WGPUMapAsyncStatus> result;
  WGPUBufferMapCallbackInfo callback = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  callback.mode = WGPUCallbackMode_AllowProcessEvents;
  callback.callback = decltype(result)::on_status;
  callback.userdata1 = &result;
  wgpuBufferMapAsync(staging.get(), WGPUMapMode_Read, 0, bytes, callback);
  const std::string errors = device.pop_error_scopes();
  device.wait_until(result.done, "a buffer map", /*queue_work=*/true);
  if (!errors.empty()) {
    // Leave the staging buffer unmapped for the next read-back.
    if (result.status == WGPUMapAsyncStatus_Success) wgpuBufferUnmap(staging.get());
    throw Error(utils::message("WebGPU ", context, ": ", errors));
  }
  if (result.status != WGPUMapAsyncStatus_Success) {
    throw Error(utils::message("WebGPU ", context, ": mapping the staging buffer failed (status ",
                               static_cast<int>(result.status), "): ", result.message));
  }
  const void* mapped = wgpuBufferGetConstMappedRange(staging.get(), 0, bytes);
  if (mapped == nullptr) {
    wgpuBufferUnmap(staging.get());
    throw Error(utils::message("WebGPU ", context, ": the mapped range is null"));
  }
  std::memcpy(data, mapped, nbytes);
  wgpuBufferUnmap(staging.get());
  device.check_errors(context);
}

// WebGPU allows 4096 queries per query set: two per dispatch.
constexpr size_t kMaxTimedDispatches = 2048;

void WebGPUGraph::Impl::reserve_timestamps(size_t count) {
  if (count > kMaxTimedDispatches) {
    throw Error(utils::message("WebGPU profiling: the graph has ", count,
                               " dispatches and copies, more than the ", kMaxTimedDispatches,
                               " one query set can time"));
  }
  const uint32_t queries = static_cast<uint32_t>(2 * std::max<size_t>(count, 1));
  if (timestamp_capacity >= queries) return;
  timestamps.reset();
  timestamp_resolve.reset();
  timestamp_capacity = 0;
  WGPUQuerySetDescriptor desc = WGPU_QUERY_SET_DESCRIPTOR_INIT;
  desc.label = string_view("profiling timestamps");
  desc.type = WGPUQueryType_Timestamp;
  desc.count = queries;
  timestamps.reset(wgpuDeviceCreateQuerySet(device.handle(), &desc));
  timestamp_resolve =
      create_buffer(8ull * queries, WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                    "the profiling timestamps");
  timestamp_capacity = queries;
}

void WebGPUGraph::Impl::add_kernel_times(const std::string& context) {
  if (timed_kernels.empty()) return;
  std::vector<uint64_t> ticks(2 * timed_kernels.size());
  read_back(timestamp_resolve.get(), ticks.data(), ticks.size() * sizeof(uint64_t), context);
  for (size_t i = 0; i < timed_kernels.size(); ++i) {
    const auto& [name, grid] = timed_kernels[i];
    // nanoseconds, as the harness reads them (codegen/bench/bench.py)
    const double ms =
        ticks[2 * i + 1] > ticks[2 * i] ? (ticks[2 * i + 1] - ticks[2 * i]) * 1e-6 : 0.0;
    const std::string by_grid =
        utils::message(*name, " [", grid.x, ", ", grid.y, ", ", grid.z, "]");
    for (KernelTime* k : {&kernel_times[*name], &kernel_grid_times[by_grid]}) {
      ++k->dispatches;
      k->gpu_ms += ms;
    }
  }
  timed_kernels.clear();
}

namespace {

void end_pass(Handle<WGPUComputePassEncoder>& pass) {
  wgpuComputePassEncoderEnd(pass.get());
  pass.reset();
}

}  // namespace

std::vector<bool> WebGPUGraph::Impl::constant_reruns() const {
  std::vector<bool> reruns(commands.size(), false);
  std::set<BufferId> rewritten;  // buffers the constant commands run so far write
  for (size_t i = 0; i < commands.size(); ++i) {
    const Command& c = commands[i];
    if (!c.constant) continue;
    const auto& reads = c.access.reads;
    const bool inputs_changed =
        std::any_of(reads.begin(), reads.end(), [&](BufferId b) { return rewritten.count(b) > 0; });
    if (!c.stale && !inputs_changed) continue;  // its result is still in its buffers
    for (const auto* list : {&c.access.reads, &c.access.writes}) {
      for (BufferId b : *list) {
        if (released.count(b)) {
          throw Error(
              utils::message("WebGPU kernel ", c.pipeline->shader->name,
                             ": a constant dispatch must run again (its params, grid or inputs "
                             "changed), but a buffer it reads or writes was freed after load "
                             "(release_consumed_constants)"));
        }
      }
    }
    rewritten.insert(c.access.writes.begin(), c.access.writes.end());
    reruns[i] = true;
  }
  return reruns;
}

void WebGPUGraph::Impl::record(Handle<WGPUCommandEncoder>& encoder, bool constants_only,
                               const std::vector<bool>& reruns, ExecuteStats& stats) {
  Handle<WGPUComputePassEncoder> pass;
  WGPUComputePipeline bound_pipeline = nullptr;
  size_t in_buffer = 0;  // dispatches recorded into this encoder
  // The first command buffers are smaller (a quarter, then half of dispatches_per_submit)
  // so the GPU starts sooner; after them it runs behind the recording anyway.
  size_t chunk = std::max<size_t>(1, dispatches_per_submit / 4);
  for (size_t i = 0; i < commands.size(); ++i) {
    Command& c = commands[i];
    if (!c.active) continue;  // switched off for these shapes (set_dispatch_active)
    if (constants_only && !c.constant) continue;
    if (c.constant) {
      if (!reruns[i]) continue;
      ++stats.constant_runs;
    }
    // a copy is a dispatch of the runtime's copy kernel (graph.cpp, add_copy)
    ++(c.kind == Command::Kind::Copy ? stats.copies : stats.dispatches);
    ++c.runs;
    if (c.grid.x == 0 || c.grid.y == 0 || c.grid.z == 0) continue;  // nothing to run
    if (dispatches_per_submit != 0 && in_buffer == chunk) {
      // this encoder is full: the GPU takes it while the rest is recorded (run() submits
      // the last one)
      if (pass) end_pass(pass);
      submit(device, std::move(encoder));
      ++stats.submits;
      encoder.reset(wgpuDeviceCreateCommandEncoder(device.handle(), nullptr));
      in_buffer = 0;
      chunk = std::min(2 * chunk, dispatches_per_submit);
    }
    if (!pass) {
      // profiling: each dispatch in a pass of its own, between two timestamps
      WGPUPassTimestampWrites writes = WGPU_PASS_TIMESTAMP_WRITES_INIT;
      writes.querySet = timestamps.get();
      writes.beginningOfPassWriteIndex = static_cast<uint32_t>(2 * timed_kernels.size());
      writes.endOfPassWriteIndex = writes.beginningOfPassWriteIndex + 1;
      WGPUComputePassDescriptor desc = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
      desc.timestampWrites = &writes;
      pass.reset(wgpuCommandEncoderBeginComputePass(encoder.get(), profiling ? &desc : nullptr));
      bound_pipeline = nullptr;
    }
    if (c.uniform && c.params_dirty) {
      // written here, not before recording: a piece's writes precede its submit, and the
      // GPU already runs the pieces before it
      const auto t0 = Clock::now();
      wgpuQueueWriteBuffer(device.queue(), c.uniform.get(), 0, c.params.data(), c.params.size());
      c.params_dirty = false;
      stats.upload_seconds += seconds_since(t0);
    }
    if (c.pipeline->pipeline.get() != bound_pipeline) {
      bound_pipeline = c.pipeline->pipeline.get();
      wgpuComputePassEncoderSetPipeline(pass.get(), bound_pipeline);
    }
    wgpuComputePassEncoderSetBindGroup(pass.get(), 0, c.bind_group.get(), 0, nullptr);
    wgpuComputePassEncoderDispatchWorkgroups(pass.get(), c.grid.x, c.grid.y, c.grid.z);
    if (profiling) {
      end_pass(pass);
      timed_kernels.emplace_back(&c.pipeline->shader->name, c.grid);
    }
    ++in_buffer;
  }
  if (pass) end_pass(pass);
}

ExecuteStats WebGPUGraph::Impl::run(bool constants_only, const char* what) {
  Impl& g = *this;
  Device& device = g.device;
  device.check_errors(std::string(what) + " (errors pending from earlier calls)");
  g.plan_constants();
  const std::vector<bool> reruns = g.constant_reruns();
  ExecuteStats stats;

  device.push_error_scopes();
  auto t0 = Clock::now();
  if (g.profiling) g.reserve_timestamps(g.commands.size());
  Handle<WGPUCommandEncoder> encoder{wgpuDeviceCreateCommandEncoder(device.handle(), nullptr)};
  g.record(encoder, constants_only, reruns, stats);
  if (!g.timed_kernels.empty()) {
    wgpuCommandEncoderResolveQuerySet(encoder.get(), g.timestamps.get(), 0,
                                      static_cast<uint32_t>(2 * g.timed_kernels.size()),
                                      g.timestamp_resolve.get(), 0);
  }
  stats.record_seconds = seconds_since(t0) - stats.upload_seconds;

  t0 = Clock::now();
  submit(device, std::move(encoder));
  ++stats.submits;
  stats.submit_seconds = seconds_since(t0);
  const std::string errors = device.pop_error_scopes();

  t0 = Clock::now();
  device.wait_queue_idle();
  stats.wait_seconds = seconds_since(t0);
  if (!errors.empty()) {
    g.timed_kernels.clear();
    throw Error(utils::message("WebGPU ", what, ": ", errors));
  }
  device.check_errors(what);
  for (size_t i = 0; i < reruns.size(); ++i) {
    if (reruns[i]) g.commands[i].stale = false;
  }
  g.add_kernel_times(std::string(what) + " (profiling timestamps)");
  return stats;
}

void WebGPUGraph::execute() {
  // SymInts computed from host-read tensors (read_on_host) follow what copy_in wrote
  if (host_values_pending()) propagate_resize();
  impl_->stats = impl_->run(/*constants_only=*/false, "execute");
  impl_->stats.resize_seconds = impl_->resize_seconds;
  impl_->resize_seconds = 0;
}

void WebGPUGraph::run_constant_dispatches() {
  impl_->run(/*constants_only=*/true, "run_constant_dispatches");
}

void WebGPUGraph::set_profiling(bool on) {
  if (on && !impl_->device.has_feature(WGPUFeatureName_TimestampQuery)) {
    throw Error(utils::message("WebGPU profiling: ", impl_->device.describe(),
                               " offers no timestamp queries (feature timestamp-query)"));
  }
  impl_->profiling = on;
}

const std::map<std::string, KernelTime>& WebGPUGraph::kernel_times() const {
  return impl_->kernel_times;
}

void WebGPUGraph::set_dispatches_per_submit(size_t n) {
  impl_->dispatches_per_submit = n;
}

const std::map<std::string, KernelTime>& WebGPUGraph::kernel_grid_times() const {
  return impl_->kernel_grid_times;
}

}  // namespace webgpu_delegate
