// The VK00 format (vk_format.h): the VH00 header in front of the flatbuffer (where the
// flatbuffer and the constant segment lie, every region checked against the blob's size),
// dtypes, int64 constants.
#include "vk_format.h"

#include <limits>

namespace webgpu_delegate::vk {
namespace {

constexpr size_t kHeaderLength = 30;

template <typename T>
T read_le(const uint8_t* p) {
  T v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(p[i]) << (8 * i);
  return v;
}

}  // namespace

Header parse_header(const uint8_t* data, size_t size) {
  if (!data || size < kHeaderLength) {
    fail("blob of ", size, " bytes is shorter than the ", kHeaderLength, "-byte VH00 header");
  }
  if (std::memcmp(data + 4, "VH00", 4) != 0) {
    fail("blob does not start with a VH00 header (magic \"",
         std::string(reinterpret_cast<const char*>(data + 4), 4), "\")");
  }
  const uint16_t length = read_le<uint16_t>(data + 8);
  if (length != kHeaderLength) {
    fail("VH00 header length ", length, ", expected ", kHeaderLength);
  }
  Header h;
  h.flatbuffer_offset = read_le<uint32_t>(data + 10);
  h.flatbuffer_size = read_le<uint32_t>(data + 14);
  h.bytes_offset = read_le<uint32_t>(data + 18);
  h.bytes_size = read_le<uint64_t>(data + 22);
  if (uint64_t{h.flatbuffer_offset} + h.flatbuffer_size > size || h.flatbuffer_size == 0) {
    fail("VH00 flatbuffer region [", h.flatbuffer_offset, ", +", h.flatbuffer_size,
         ") does not fit the ", size, "-byte blob");
  }
  if (h.bytes_offset > size || h.bytes_size > size - h.bytes_offset) {
    fail("VH00 constant region [", h.bytes_offset, ", +", h.bytes_size, ") does not fit the ", size,
         "-byte blob");
  }
  return h;
}

std::string value_what(uint32_t id) {
  return utils::message("value ", id);
}

DType graph_dtype(vkgraph::VkDataType t, uint32_t id) {
  switch (t) {
    case vkgraph::VkDataType_FLOAT32:
      return DType::Float32;
    case vkgraph::VkDataType_INT32:
    // The Vulkan serializer narrows int64 to int32 (downcast_64_bit, on by
    // default); a graph serialized without it still runs int32 on the GPU.
    case vkgraph::VkDataType_INT64:
      return DType::Int32;
    case vkgraph::VkDataType_FLOAT16:
      return DType::Float16;
    case vkgraph::VkDataType_UINT8:
      return DType::UInt8;
    case vkgraph::VkDataType_INT8:
      return DType::Int8;
    case vkgraph::VkDataType_BOOL:
      return DType::Bool;
    default:
      fail(value_what(id), ": tensor dtype ", vkgraph::EnumNameVkDataType(t),
           " is not supported (expected FLOAT32, INT32, INT64, FLOAT16, UINT8, INT8 or BOOL)");
  }
}

std::vector<uint8_t> narrow_int64(const uint8_t* data, size_t nbytes, uint32_t id) {
  std::vector<uint8_t> out(nbytes / 2);
  for (size_t i = 0; i < nbytes / 8; ++i) {
    int64_t v;
    std::memcpy(&v, data + 8 * i, 8);
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      fail(value_what(id), ": int64 constant element ", i, " = ", v, " does not fit int32");
    }
    const int32_t n = static_cast<int32_t>(v);
    std::memcpy(out.data() + 4 * i, &n, 4);
  }
  return out;
}

}  // namespace webgpu_delegate::vk
