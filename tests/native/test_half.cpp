// Host float <-> half conversion (webgpu_delegate/half.h): every half survives the round
// trip, and float -> half rounds to nearest even with IEEE overflow and subnormals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "webgpu_delegate/half.h"

using namespace webgpu_delegate;

namespace {
float from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
}  // namespace

TEST(Half, every_half_round_trips) {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const float f = float_from_half(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_TRUE((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu)) << h;
      EXPECT_EQ(half_from_float(f) & 0x7c00u, 0x7c00u) << h;
      continue;
    }
    EXPECT_EQ(half_from_float(f), h) << h;
  }
}

TEST(Half, values_of_note) {
  EXPECT_EQ(float_from_half(0x3c00u), 1.0f);
  EXPECT_EQ(float_from_half(0x7bffu), 65504.0f);
  EXPECT_EQ(float_from_half(0x0001u), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(float_from_half(0x0400u), std::ldexp(1.0f, -14));  // smallest normal
  EXPECT_EQ(float_from_half(0x8000u), -0.0f);
  EXPECT_TRUE(std::signbit(float_from_half(0x8000u)));
  EXPECT_EQ(float_from_half(0xfc00u), -std::numeric_limits<float>::infinity());
}

TEST(Half, rounds_to_nearest_even_and_overflows_to_infinity) {
  EXPECT_EQ(half_from_float(65504.0f), 0x7bffu);
  EXPECT_EQ(half_from_float(65519.99f), 0x7bffu);  // below the midpoint to 65536
  EXPECT_EQ(half_from_float(65520.0f), 0x7c00u);   // the midpoint rounds to even: infinity
  EXPECT_EQ(half_from_float(-1e6f), 0xfc00u);
  EXPECT_EQ(half_from_float(std::numeric_limits<float>::infinity()), 0x7c00u);
  EXPECT_EQ(half_from_float(1.0f + std::ldexp(1.0f, -11)), 0x3c00u);  // tie: even
  EXPECT_EQ(half_from_float(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02u);  // tie: even
  EXPECT_EQ(half_from_float(from_bits(0x3f800001u) + std::ldexp(1.0f, -11)), 0x3c01u);
}

TEST(Half, subnormals_and_underflow) {
  EXPECT_EQ(half_from_float(std::ldexp(1.0f, -24)), 0x0001u);
  EXPECT_EQ(half_from_float(std::ldexp(1.0f, -25)), 0x0000u);          // tie: even (zero)
  EXPECT_EQ(half_from_float(std::ldexp(1.5f, -25)), 0x0001u);          // above the tie
  EXPECT_EQ(half_from_float(std::ldexp(3.0f, -25)), 0x0002u);          // 1.5 units: even
  EXPECT_EQ(half_from_float(-std::ldexp(1.0f, -30)), 0x8000u);         // -0
  EXPECT_EQ(half_from_float(std::ldexp(1023.5f, -24)), 0x0400u);       // up into the normals
  EXPECT_EQ(half_from_float(6.0e-5f), 0x03efu);
  EXPECT_EQ(half_from_float(std::numeric_limits<float>::denorm_min()), 0x0000u);
}

TEST(Half, nan_stays_nan) {
  const uint16_t h = half_from_float(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(h & 0x7c00u, 0x7c00u);
  EXPECT_NE(h & 0x3ffu, 0u);
}
