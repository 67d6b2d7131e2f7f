// Graph inputs and outputs to and from host memory whose element type may differ from the
// graph tensor's: the same dtype is copied as it is; int64 on the host for an int32 graph
// tensor (token ids) is narrowed, each value checked; float32 on the host for a float16
// graph tensor (the Vulkan partitioner's force_fp16 keeps a program's inputs and outputs
// float32) is converted, rounding to nearest even. The ExecuTorch backend and the browser
// build's model loader both move their delegate's inputs and outputs through these.
#pragma once

#include <cstddef>
#include <string>

#include "webgpu_delegate/graph.h"

namespace webgpu_delegate {

// Whether host elements of `host` can feed (and take back) a graph tensor of `graph`.
bool host_dtype_fits(DType host, DType graph);

// Throws "WebGPU delegate: <what> has dtype <host>, the graph tensor is <graph>" unless
// host_dtype_fits.
void check_host_dtype(DType host, DType graph, const std::string& what);

// `numel` host elements of `host` at `data` into the graph tensor `ref`.
void copy_in_host(WebGPUGraph& graph, ValueRef ref, DType host, const void* data, size_t numel,
                  const std::string& what);

// The graph tensor `ref` into `data`, which holds its numel() elements of `host`.
void copy_out_host(WebGPUGraph& graph, ValueRef ref, DType host, void* data,
                   const std::string& what);

}  // namespace webgpu_delegate
