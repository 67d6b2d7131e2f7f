// A model in the browser: a VK00 graph (the delegate blob of a fully delegated .pte, as
// `opgen web` writes it) loaded by the same loader as natively (cpp_runtime/executorch/
// vk_graph.h), its weights written to GPU buffers from the page's ArrayBuffer, and run
// the way the ExecuTorch backend runs a delegate (cpp_runtime/executorch/backend.cpp):
// new input shapes resize the graph, inputs and outputs move through host_io.h (int64 ids
// narrowed to the graph's int32, float32 to and from a force_fp16 graph's float16), outputs
// take their live shapes and are read back.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vk_graph.h"
#include "webgpu_delegate/device.h"

namespace webgpu_delegate::web {

// An input or output tensor as the host holds it (the .pte program's dtype and shape).
struct HostTensor {
  DType dtype = DType::Float32;
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;
};

class WebModel {
 public:
  // `source`: the page's id of the model file's ArrayBuffer; `blob`/`blob_size`: the
  // VH00 header and flatbuffer (in wasm memory) and the whole blob's declared size;
  // `spec`: the model's JSON spec (web/README.md: "named", "segment", "inputs", "outputs").
  WebModel(Device& device, int source, const uint8_t* blob, size_t blob_size,
           const std::string& spec);

  size_t num_inputs() const { return inputs_.size(); }
  // Stages input `i` for the next run (bytes in the host dtype, live dims).
  void set_input(size_t i, std::vector<int64_t> dims, const uint8_t* data, size_t nbytes);
  // Resizes, uploads the staged inputs, executes, reads every output back.
  void run();
  const std::vector<HostTensor>& outputs() const { return outputs_; }
  // JSON: the graph's inputs and outputs, ops, dispatches and what the load freed.
  std::string describe() const;
  // JSON: the last run's counts and host-clock split (ExecuteStats).
  std::string last_run() const;

 private:
  std::unique_ptr<vk::ExternalConstants> constants_;
  std::unique_ptr<vk::LoadedGraph> graph_;
  std::vector<HostTensor> inputs_;   // staged; dtype from the spec
  std::vector<HostTensor> outputs_;  // of the last run; dtype from the spec
};

}  // namespace webgpu_delegate::web
