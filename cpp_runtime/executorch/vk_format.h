// The VK00 format's pieces the graph builder reads through: the VH00 header (vk_graph.h's
// parse_header), VK00 dtypes as graph dtypes, int64 constants narrowed to int32, vectors of
// 8-byte scalars; every failure an Error starting "WebGPU VK00 graph: ". Internal to
// vk_graph.cpp and vk_format.cpp.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstring>
#include <string>
#include <vector>

#include "vk_graph.h"

// Generated at build time by flatc from the executorch wheel's
// backends/vulkan/serialization/schema.fbs (see CMakeLists.txt).
#include "schema_generated.h"

namespace webgpu_delegate::vk {

template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  throw Error(utils::message("WebGPU VK00 graph: ", parts...));
}

// "value <id>"
std::string value_what(uint32_t id);

// A VK00 tensor dtype as the graph's (INT64 becomes int32 on the GPU); Error otherwise.
DType graph_dtype(vkgraph::VkDataType t, uint32_t id);

// int64 constant data narrowed to int32, each element checked.
std::vector<uint8_t> narrow_int64(const uint8_t* data, size_t nbytes, uint32_t id);

// The items of a flatbuffer vector of 8-byte scalars. The verifier checks the
// alignment of a vector's length field only (4 bytes), so a hostile buffer can
// place 8-byte items at a 4-byte boundary: read them with memcpy.
template <typename T>
std::vector<T> read_scalars(const flatbuffers::Vector<T>* v) {
  std::vector<T> out;
  if (!v) return out;
  out.resize(v->size());
  if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
  return out;
}

}  // namespace webgpu_delegate::vk
