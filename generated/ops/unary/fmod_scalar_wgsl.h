// @generated from codegen/specs/unary/fmod_scalar.wgsl - DO NOT EDIT.
// wgsl-sha256: e97479d1e19b216a8f4785634dfebb6614913d8990827cc72ab2cb1796bb6d09
#pragma once

#include <cstdint>

inline constexpr const char* kFmodScalarWGSL =
    R"wgsl(// fmod.Scalar on float32: C's fmod (torch.fmod), x - trunc(x / d) * d computed exactly (the
// result is always a float32; no rounding happens), with the dividend's sign. Done on the
// bits with integer arithmetic (musl's fmodf: binary long division of the significands),
// so subnormal inputs and results are kept whatever the adapter does with subnormal
// floats. Edges as C and torch: x = +-inf or d = +-0 or a NaN on either side -> NaN;
// |x| < |d| (d = +-inf included) -> x; a zero result keeps x's sign (-7.5 fmod 2.5 = -0.0).
// The tensors are bound as u32 words: float32 bits in and out.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_vec4: u32,
  divisor: f32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<u32>>;
const WORKGROUP_SIZE_X: u32 = 128u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
const ITEMS_PER_INVOCATION: u32 = 4u;
// The invocation's first item; its item k is first + k * WORKGROUP_SIZE_X.
fn first_item(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  let lane = gid.x % WORKGROUP_SIZE_X;
  return (linear_index(gid, num_workgroups) - lane) * ITEMS_PER_INVOCATION + lane;
}
// Shared helpers (unary_map.wgsl).
// The entry point of every unary kernel (emitted into their declaration blocks by opgen):
// each invocation maps its 4 vec4s (first_item(): WORKGROUP_SIZE_X apart) through the
// kernel's apply(). All loads are issued before the first store, so each invocation
// keeps 64 bytes in flight.

const_assert ITEMS_PER_INVOCATION == 4u;  // i0..i3 below

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i0 = first_item(gid, num_workgroups);
  let n = params.num_vec4;
  if (i0 >= n) {
    return;
  }
  let i1 = i0 + WORKGROUP_SIZE_X;
  let i2 = i1 + WORKGROUP_SIZE_X;
  let i3 = i2 + WORKGROUP_SIZE_X;
  // past the end: read the last vec4 again, store nothing
  let x0 = input[i0];
  let x1 = input[min(i1, n - 1u)];
  let x2 = input[min(i2, n - 1u)];
  let x3 = input[min(i3, n - 1u)];
  output[i0] = apply(x0);
  if (i1 < n) {
    output[i1] = apply(x1);
  }
  if (i2 < n) {
    output[i2] = apply(x2);
  }
  if (i3 < n) {
    output[i3] = apply(x3);
  }
}
// @opgen-end declarations

// The significand of a non-zero finite magnitude `m` with its leading 1 at bit 23, and the
// exponent that goes with it (below 1 for a subnormal, which is normalized here).
fn unpack(m: u32) -> vec2<u32> {
  if (m >= 0x800000u) {
    return vec2<u32>((m & 0x7fffffu) | 0x800000u, m >> 23u);
  }
  let shift = countLeadingZeros(m) - 8u;
  return vec2<u32>(m << shift, bitcast<u32>(1i - i32(shift)));
}

fn fmod_bits(x: u32, d: u32) -> u32 {
  let sign = x & 0x80000000u;
  let mx = x & 0x7fffffffu;
  let md = d & 0x7fffffffu;
  if (md == 0u || md > 0x7f800000u || mx >= 0x7f800000u) {
    return 0x7fc00000u;  // x inf or NaN, d zero or NaN
  }
  if (mx < md) {
    return x;  // |x| < |d|, d = inf too: x itself, -0.0 included
  }
  if (mx == md) {
    return sign;
  }
  let ux = unpack(mx);
  let ud = unpack(md);
  var r = ux.x;
  let s = ud.x;
  var e = bitcast<i32>(ux.y);
  let ed = bitcast<i32>(ud.y);
  // r < 2s on entry to every step: one conditional subtraction per bit of the quotient
  for (; e > ed; e--) {
    if (r >= s) {
      r -= s;
    }
    if (r == 0u) {
      return sign;
    }
    r <<= 1u;
  }
  if (r >= s) {
    r -= s;
  }
  if (r == 0u) {
    return sign;
  }
  // renormalize: the leading 1 back to bit 23, then a normal or a subnormal result
  let shift = countLeadingZeros(r) - 8u;
  r <<= shift;
  e -= i32(shift);
  if (e > 0i) {
    return sign | (u32(e) << 23u) | (r & 0x7fffffu);
  }
  return sign | (r >> u32(1i - e));
}

// The entry point is in unary_map.wgsl.
fn apply(x: vec4<u32>) -> vec4<u32> {
  let d = bitcast<u32>(params.divisor);
  return vec4<u32>(fmod_bits(x.x, d), fmod_bits(x.y, d), fmod_bits(x.z, d), fmod_bits(x.w, d));
}
)wgsl";

inline constexpr uint32_t kFmodScalarWorkgroupSizeX = 128;
inline constexpr uint32_t kFmodScalarWorkgroupSizeY = 1;
inline constexpr uint32_t kFmodScalarWorkgroupSizeZ = 1;
