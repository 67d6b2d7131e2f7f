// A VK00 graph (what ExecuTorch's Vulkan partitioner serializes behind a VH00
// header) rebuilt as a WebGPUGraph: values, constants, shared memory objects,
// and every operator dispatched through the registered (generated) handlers.
// Independent of the ExecuTorch runtime, so tools and tests can use it alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "webgpu_delegate/device.h"
#include "webgpu_delegate/graph.h"

namespace webgpu_delegate::vk {

// The VH00 header in front of the VK00 flatbuffer (all offsets from the blob start).
struct Header {
  uint32_t flatbuffer_offset = 0;
  uint32_t flatbuffer_size = 0;
  uint32_t bytes_offset = 0;  // the constant segment
  uint64_t bytes_size = 0;
};
// Throws Error when the blob is too short, the magic is not VH00, or a region
// lies outside the blob.
Header parse_header(const uint8_t* data, size_t size);

// Bytes of a constant stored by name (ExecuTorch's named data map) rather than
// in the blob's constant segment. Throws Error when the key is unknown.
using NamedDataLookup = std::function<std::vector<uint8_t>(const std::string& key)>;

// Constants a loader keeps outside this process's memory: the browser build leaves a
// model's weights in the JavaScript ArrayBuffer it fetched and writes GPU buffers from
// there (wasm32 memory is at most 4 GB). With one, LoadedGraph reads only the VH00 header
// and the flatbuffer region of its `data` (`size` stays the whole blob's, for the header's
// checks); the constant segment and the named constants come from here.
class ExternalConstants {
 public:
  virtual ~ExternalConstants() = default;
  // The byte length of named constant `key`; throws Error when there is none.
  virtual uint64_t named_size(const std::string& key) = 0;
  // Writes `length` bytes into the tensor's buffer (WebGPUGraph::copy_in_from): those of
  // named constant `key`, or, when `key` is empty, those at `offset` of the segment.
  virtual void write(WebGPUGraph& graph, ValueRef tensor, const std::string& key,
                     uint64_t offset, uint64_t length) = 0;
  // The same bytes in host memory (int64 constants are narrowed on the host).
  virtual std::vector<uint8_t> read(const std::string& key, uint64_t offset, uint64_t length) = 0;
};

// The operators the backend implements itself rather than through a generated
// handler: et_vk.prepack (materialize a constant into its own tensor).
// The registry target of a chain entry's operator name ("scalar_tensor.default" ->
// "aten.scalar_tensor.default"; namespaced names unchanged).
std::string op_target(const std::string& name);
bool is_builtin_op(const std::string& name);

class LoadedGraph {
 public:
  // Verifies and reads the blob; fails (before building anything) with the
  // name of every operator that has no handler. `views_share_buffers` (memory_plan.h):
  // a view's output lives in its input's buffer and the view copies nothing; off, each
  // view copies into a buffer of its own (for timing both).
  // `external`: where the constants are when they are not in `data` (see ExternalConstants).
  LoadedGraph(Device& device, const uint8_t* data, size_t size, const NamedDataLookup& named_data,
              bool views_share_buffers = true, ExternalConstants* external = nullptr);

  WebGPUGraph& graph() { return graph_; }
  // Graph values for the VK00 input_ids / output_ids, in order.
  const std::vector<ValueRef>& inputs() const { return inputs_; }
  const std::vector<ValueRef>& outputs() const { return outputs_; }
  // The operator of each call the graph was built from, in order: the chain as
  // vk_fusion.h rewrites it (a fused call in place of its pattern).
  const std::vector<std::string>& ops() const { return ops_; }

 private:
  WebGPUGraph graph_;
  std::vector<ValueRef> inputs_;
  std::vector<ValueRef> outputs_;
  std::vector<std::string> ops_;
};

}  // namespace webgpu_delegate::vk
