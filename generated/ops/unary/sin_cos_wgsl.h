// @generated from codegen/specs/unary/sin_cos.wgsl - DO NOT EDIT.
// wgsl-sha256: b3aa24167c7f1b32cd2728f177369639cf8ac63661f47f062a3e4c6dff3adb6c
#pragma once

#include <cstdint>

inline constexpr const char* kSinCosWGSL =
    R"wgsl(// sin and cos (cos(x) = sin(x + pi/2): the override QUADRANT adds one quarter turn).
// x = n pi/2 + r, |r| <= pi/4, with pi/2 in three 8-bit parts and a remainder
// (Cody-Waite: n * part is exact while |n| < 2^16, i.e. |x| < 102943); then sin r or
// cos r by least-squares polynomials (error below 1e-7 on [-pi/4, pi/4]) picked and
// signed by the quadrant. Absolute error about 1e-7 for |x| < 1e5; beyond that the
// reduction loses precision and results, still in [-1, 1], may be off by up to 1
// (torch reduces exactly). sin(±0) = ±0, inf and NaN give NaN.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_vec4: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<f32>>;
override QUADRANT: u32 = 0u;
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

const TWO_OVER_PI: f32 = 0.6366197723675814;
const PIO2_1: f32 = 1.5703125;
const PIO2_2: f32 = 0.000484466552734375;
const PIO2_3: f32 = -6.407499313354492e-07;
const PIO2_4: f32 = 9.920935184482005e-10;

fn sin_poly(r: vec4<f32>, z: vec4<f32>) -> vec4<f32> {
  var p = vec4<f32>(2.7249963661961397e-06);
  p = fma(p, z, vec4<f32>(-1.9840083879581069e-04));
  p = fma(p, z, vec4<f32>(8.3333318656323499e-03));
  p = fma(p, z, vec4<f32>(-1.6666666663781823e-01));
  return r * fma(z, p, vec4<f32>(1.0));  // r * (...) keeps the sign of a zero r
}

fn cos_poly(z: vec4<f32>) -> vec4<f32> {
  var p = vec4<f32>(-2.7300986283637347e-07);
  p = fma(p, z, vec4<f32>(2.4800600627731172e-05));
  p = fma(p, z, vec4<f32>(-1.3888887672596612e-03));
  p = fma(p, z, vec4<f32>(4.1666666664323192e-02));
  return fma(z * z, p, 1.0 - 0.5 * z);
}

// The entry point is in unary_map.wgsl.
fn apply(x: vec4<f32>) -> vec4<f32> {
  let finite = !(is_inf(x) | is_nan(x));
  let xf = select(vec4<f32>(0.0), x, finite);
  let k = vec4<i32>(round(xf * TWO_OVER_PI));
  let n = vec4<f32>(k);
  let reduced = (((xf - n * PIO2_1) - n * PIO2_2) - n * PIO2_3) - n * PIO2_4;
  let r = select(reduced, xf, k == vec4<i32>(0));  // keeps the sign of a zero x
  let z = r * r;
  let s = sin_poly(r, z);
  let c = cos_poly(z);
  let quadrant = vec4<u32>(k) + vec4<u32>(QUADRANT);
  let odd = (quadrant & vec4<u32>(1u)) != vec4<u32>(0u);
  let negate = (quadrant & vec4<u32>(2u)) != vec4<u32>(0u);
  let y = select(s, c, odd);
  return select(nan_from(x), select(y, -y, negate), finite);
}
)wgsl";

inline constexpr uint32_t kSinCosWorkgroupSizeX = 128;
inline constexpr uint32_t kSinCosWorkgroupSizeY = 1;
inline constexpr uint32_t kSinCosWorkgroupSizeZ = 1;
