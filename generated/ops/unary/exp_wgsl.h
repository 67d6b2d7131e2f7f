// @generated from codegen/specs/unary/exp.wgsl - DO NOT EDIT.
// wgsl-sha256: 87491a0d8a5574679b62011aa4b2cd8c16ecfafdba3695a97ac3bce3bb8f3c26
#pragma once

#include <cstdint>

inline constexpr const char* kExpWGSL =
    R"wgsl(// exp: exp_reduced (exp_reduced.wgsl), about 1 ulp over the whole range; overflows to
// inf past 88.72, subnormal results below -87.3 (an adapter that flushes subnormals
// gives 0 there).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_vec4: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<f32>>;
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
// Shared helpers (float_bits.wgsl).
// IEEE classification and sign handling on the bits: GPU compilers may fold x != x or
// rewrite a float compare-and-select into min/max, which drop NaN and the sign of zero
// (docs/numerics.md). Special results are built from the input's bits, never from a
// constant NaN or infinity (Tint rejects those as constant expressions).

fn magnitude_bits(x: vec4<f32>) -> vec4<u32> {
  return bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu);
}

fn is_nan(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) > vec4<u32>(0x7f800000u);
}

fn is_inf(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) == vec4<u32>(0x7f800000u);
}

fn is_zero(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) == vec4<u32>(0u);
}

fn sign_bit(x: vec4<f32>) -> vec4<u32> {
  return bitcast<vec4<u32>>(x) & vec4<u32>(0x80000000u);
}

// |magnitude| with the sign of `sign_of`
fn copy_sign(magnitude: vec4<f32>, sign_of: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(magnitude_bits(magnitude) | sign_bit(sign_of));
}

// a quiet NaN (any sign), computed from x
fn nan_from(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(bitcast<vec4<u32>>(x) | vec4<u32>(0x7fc00000u));
}

// an infinity with the sign of x
fn inf_like(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(sign_bit(x) | vec4<u32>(0x7f800000u));
}

// a zero with the sign of x
fn zero_like(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(sign_bit(x));
}
// Shared helpers (exp_reduced.wgsl).
// exp(x) to about 1 ulp over the whole f32 range (the builtin may be off by 3 + 2|x| ulp,
// 2e-6 relative at x = 88 on lavapipe): x = n ln2 + r with |r| <= ln2 / 2 (Cody-Waite:
// n * LN2_HI is exact for |n| < 256), exp(r) by its Taylor polynomial to r^7, scaled by
// 2^n in two exact power-of-two steps, so results down to the subnormals round once and
// large x overflow to inf. NaN passes; -inf gives 0, +inf gives inf.
const LN2_HI: f32 = 0.693145751953125;  // ln 2 to 16 bits
const LN2_LO: f32 = 1.4286068203094172e-06;  // ln 2 - LN2_HI
const LOG2_E: f32 = 1.4426950408889634;

// 2^k for k in [-126, 127]
fn two_pow(k: vec4<i32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(vec4<u32>(k + vec4<i32>(127)) << vec4<u32>(23u));
}

fn exp_reduced(x: vec4<f32>) -> vec4<f32> {
  // exp(-104) < 2^-150 rounds to 0; exp(89) > FLT_MAX
  let xc = clamp(x, vec4<f32>(-104.0), vec4<f32>(89.0));
  let n = round(xc * LOG2_E);
  let r = (xc - n * LN2_HI) - n * LN2_LO;
  var p = vec4<f32>(1.0 / 5040.0);
  p = fma(p, r, vec4<f32>(1.0 / 720.0));
  p = fma(p, r, vec4<f32>(1.0 / 120.0));
  p = fma(p, r, vec4<f32>(1.0 / 24.0));
  p = fma(p, r, vec4<f32>(1.0 / 6.0));
  p = fma(p, r, vec4<f32>(0.5));
  p = fma(p, r, vec4<f32>(1.0));
  p = fma(p, r, vec4<f32>(1.0));
  let k = vec4<i32>(n);  // in [-150, 128]: two steps of [-75, 64]
  let k1 = k >> vec4<u32>(1u);
  let y = p * two_pow(k1) * two_pow(k - k1);
  return select(y, x, is_nan(x));
}
// @opgen-end declarations

// The entry point is in unary_map.wgsl.
fn apply(x: vec4<f32>) -> vec4<f32> {
  return exp_reduced(x);
}
)wgsl";

inline constexpr uint32_t kExpWorkgroupSizeX = 128;
inline constexpr uint32_t kExpWorkgroupSizeY = 1;
inline constexpr uint32_t kExpWorkgroupSizeZ = 1;
