// IEEE 754 binary16 <-> binary32 on the host, for graphs whose tensors are float16 on
// the GPU while the program hands the delegate float32 (ExecuTorch's Vulkan
// partitioner with force_fp16: its inputs and outputs keep a float32 staging dtype).
// float -> half rounds to nearest, ties to even, as torch's `.half()` does: values past
// the half range become infinities, tiny ones subnormals or zero, NaN stays NaN (quiet).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace webgpu_delegate {

inline uint16_t half_from_float(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) {  // infinity, or NaN (kept quiet, top payload bits kept)
    return static_cast<uint16_t>(
        sign | (magnitude > 0x7f800000u ? 0x7e00u | ((magnitude >> 13) & 0x3ffu) : 0x7c00u));
  }
  if (magnitude >= 0x477ff000u) {  // 65520 and above round past 65504: infinity
    return static_cast<uint16_t>(sign | 0x7c00u);
  }
  if (magnitude >= 0x38800000u) {  // a normal half: drop 13 mantissa bits, ties to even
    const uint32_t rebiased = magnitude - (112u << 23);
    const uint32_t round = 0xfffu + ((rebiased >> 13) & 1u);
    return static_cast<uint16_t>(sign | ((rebiased + round) >> 13));
  }
  if (magnitude <= 0x33000000u) {  // at most half the smallest subnormal: zero
    return static_cast<uint16_t>(sign);
  }
  // a subnormal half: the full mantissa shifted to units of 2^-24, ties to even
  const uint32_t exponent = magnitude >> 23;
  const uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
  const uint32_t shift = 126u - exponent;  // 14..24 here
  const uint32_t kept = mantissa >> shift;
  const uint32_t rest = mantissa & ((1u << shift) - 1u);
  const uint32_t halfway = 1u << (shift - 1u);
  const uint32_t up = rest > halfway || (rest == halfway && (kept & 1u));
  return static_cast<uint16_t>(sign | (kept + up));
}

inline float float_from_half(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1fu) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // a subnormal half is a normal float: normalize the mantissa
    uint32_t e = 113u;
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      --e;
    }
    bits = sign | (e << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

// `n` floats to halves and halves to floats, each element exactly as half_from_float /
// float_from_half convert it; on an x86-64 CPU with F16C (host_io.cpp) eight at a time by
// its conversion instructions, which round the same way (nearest even, IEEE overflow,
// subnormal halves, NaN quieted with its top payload bits).
void halves_from_floats(const float* src, uint16_t* dst, size_t n);
void floats_from_halves(const uint16_t* src, float* dst, size_t n);

}  // namespace webgpu_delegate
