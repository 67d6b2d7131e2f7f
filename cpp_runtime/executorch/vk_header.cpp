// The VH00 header in front of a VK00 flatbuffer: where the flatbuffer and the constant
// segment lie in the blob, every region checked against the blob's size.
#include <cstring>
#include <string>

#include "vk_graph.h"

namespace webgpu_delegate::vk {
namespace {

constexpr size_t kHeaderLength = 30;

template <typename T>
T read_le(const uint8_t* p) {
  T v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(p[i]) << (8 * i);
  return v;
}

template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  throw Error(utils::message("WebGPU VK00 graph: ", parts...));
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

}  // namespace webgpu_delegate::vk
