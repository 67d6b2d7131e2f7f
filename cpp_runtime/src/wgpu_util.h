// Small internal helpers around webgpu.h types.
#pragma once

#include <webgpu.h>

#include <string>

namespace webgpu_delegate {

inline WGPUStringView string_view(const char* s) {
  return WGPUStringView{s, WGPU_STRLEN};
}
inline WGPUStringView string_view(const std::string& s) {
  return WGPUStringView{s.data(), s.size()};
}

inline std::string to_string(WGPUStringView v) {
  if (v.data == nullptr) return {};
  return v.length == WGPU_STRLEN ? std::string(v.data) : std::string(v.data, v.length);
}

inline uint64_t round_up(uint64_t v, uint64_t multiple) {
  return (v + multiple - 1) / multiple * multiple;
}

}  // namespace webgpu_delegate
