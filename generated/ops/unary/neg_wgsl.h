// @generated from codegen/specs/unary/neg.wgsl - DO NOT EDIT.
// wgsl-sha256: 4bacffa6b43d04f9909ab9b4250cffd71d81d2d45afd2ac0fd44ea3eca9645e2
#pragma once

#include <cstdint>

inline constexpr const char* kNegWGSL =
    R"wgsl(// neg: flips the sign bit, as torch: -0.0 <-> 0.0, infinities swap, NaN stays NaN.

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
// @opgen-end declarations

// The entry point is in unary_map.wgsl.
fn apply(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(bitcast<vec4<u32>>(x) ^ vec4<u32>(0x80000000u));
}
)wgsl";

inline constexpr uint32_t kNegWorkgroupSizeX = 128;
inline constexpr uint32_t kNegWorkgroupSizeY = 1;
inline constexpr uint32_t kNegWorkgroupSizeZ = 1;
