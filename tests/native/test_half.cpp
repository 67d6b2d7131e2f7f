// Host float <-> half conversion (webgpu_delegate/half.h): every half survives the round
// trip, and float -> half rounds to nearest even with IEEE overflow and subnormals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

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
  EXPECT_EQ(half_from_float(1.0f + std::ldexp(1.0f, -11)), 0x3c00u);      // tie: even
  EXPECT_EQ(half_from_float(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02u);  // tie: even
  EXPECT_EQ(half_from_float(from_bits(0x3f800001u) + std::ldexp(1.0f, -11)), 0x3c01u);
}

TEST(Half, subnormals_and_underflow) {
  EXPECT_EQ(half_from_float(std::ldexp(1.0f, -24)), 0x0001u);
  EXPECT_EQ(half_from_float(std::ldexp(1.0f, -25)), 0x0000u);     // tie: even (zero)
  EXPECT_EQ(half_from_float(std::ldexp(1.5f, -25)), 0x0001u);     // above the tie
  EXPECT_EQ(half_from_float(std::ldexp(3.0f, -25)), 0x0002u);     // 1.5 units: even
  EXPECT_EQ(half_from_float(-std::ldexp(1.0f, -30)), 0x8000u);    // -0
  EXPECT_EQ(half_from_float(std::ldexp(1023.5f, -24)), 0x0400u);  // up into the normals
  EXPECT_EQ(half_from_float(6.0e-5f), 0x03efu);
  EXPECT_EQ(half_from_float(std::numeric_limits<float>::denorm_min()), 0x0000u);
}

TEST(Half, nan_stays_nan) {
  const uint16_t h = half_from_float(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(h & 0x7c00u, 0x7c00u);
  EXPECT_NE(h & 0x3ffu, 0u);
}

// The bulk conversions (F16C's instructions where the CPU has them) agree with the element
// conversions: every half, and floats around every half's rounding boundaries, specials
// and ranges past the half range; lengths that leave a tail of fewer than eight.
TEST(Half, bulk_conversions_match_the_element_ones) {
  std::vector<uint16_t> halves(0x10000u);
  for (uint32_t h = 0; h < 0x10000u; ++h) halves[h] = static_cast<uint16_t>(h);
  std::vector<float> floats(halves.size());
  floats_from_halves(halves.data(), floats.data(), floats.size());
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const float want = float_from_half(static_cast<uint16_t>(h));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(floats[h])) << h;
    } else {
      EXPECT_EQ(std::memcmp(&floats[h], &want, 4), 0) << h;
    }
  }
  std::vector<float> probes;
  for (uint32_t exponent = 90; exponent < 160; ++exponent) {
    for (uint32_t m = 0; m < (1u << 23); m += 997) {
      for (uint32_t sign : {0u, 0x80000000u}) {
        const uint32_t bits = sign | (exponent << 23) | m;
        probes.push_back(from_bits(bits));
        probes.push_back(from_bits(bits | 0xfffu));                // just under a tie
        probes.push_back(from_bits((bits & ~0x1fffu) | 0x1000u));  // a tie
      }
    }
  }
  for (uint32_t bits : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffa12345u,
                        0x00000001u, 0x477ff000u, 0x477fefffu, 0x33000000u, 0x33000001u}) {
    probes.push_back(from_bits(bits));
  }
  probes.resize(probes.size() / 8 * 8 + 5);  // a tail of five
  std::vector<uint16_t> out(probes.size());
  halves_from_floats(probes.data(), out.data(), probes.size());
  for (size_t i = 0; i < probes.size(); ++i) {
    EXPECT_EQ(out[i], half_from_float(probes[i])) << probes[i];
  }
}
