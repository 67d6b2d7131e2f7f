// @generated from codegen/specs/unary/clamp.wgsl - DO NOT EDIT.
// wgsl-sha256: 3f5581f259c32a650cceb1cda148a21426b4a10c0308952edd03e24d9b794ccb
#pragma once

#include <cstdint>

inline constexpr const char* kClampWGSL =
    R"wgsl(// clamp (and hardtanh): out = min(max(x, lo), hi) as torch computes it: x stays unless
// x < lo (then lo) and the result stays unless it is > hi (then hi), so lo > hi gives hi,
// -0.0 and 0.0 compare equal (clamp(-0.0, min=0.0) = -0.0), NaN x stays NaN and a NaN
// bound makes every element NaN. The order tests are integer compares on sign-magnitude
// keys, so no compiler can turn them into a min/max that drops NaN or the sign of zero.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_vec4: u32,
  min_value: f32,
  max_value: f32,
  has_min: u32,
  has_max: u32,
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
// @opgen-end declarations

// an integer whose order is the float order (-0.0 and 0.0 equal); for non-NaN x
fn order_key(x: vec4<f32>) -> vec4<i32> {
  let bits = bitcast<vec4<i32>>(x);
  return select(bits, -(bits & vec4<i32>(0x7fffffff)), bits < vec4<i32>(0));
}

// The entry point is in unary_map.wgsl.
fn apply(x: vec4<f32>) -> vec4<f32> {
  let lo = vec4<f32>(params.min_value);
  let hi = vec4<f32>(params.max_value);
  let has_min = vec4<bool>(params.has_min != 0u);
  let has_max = vec4<bool>(params.has_max != 0u);
  var y = select(x, lo, has_min & (order_key(x) < order_key(lo)));
  y = select(y, hi, has_max & (order_key(y) > order_key(hi)));
  let nan_bound = (has_min & is_nan(lo)) | (has_max & is_nan(hi));
  return select(y, nan_from(x), is_nan(x) | nan_bound);
}
)wgsl";

inline constexpr uint32_t kClampWorkgroupSizeX = 128;
inline constexpr uint32_t kClampWorkgroupSizeY = 1;
inline constexpr uint32_t kClampWorkgroupSizeZ = 1;
