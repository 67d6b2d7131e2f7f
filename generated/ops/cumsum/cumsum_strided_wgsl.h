// @generated from codegen/specs/cumsum/cumsum_strided.wgsl - DO NOT EDIT.
// wgsl-sha256: 5749387756dcb1ef735ea81a1b347a5b0005ece28a32d9146501a3a5ccc9cb2c
#pragma once

#include <cstdint>

inline constexpr const char* kCumsumStridedWGSL =
    R"wgsl(// cumsum_strided: cumsum over a strided dim: one invocation adds up a line of N elements
// `inner` apart in order, so neighbouring invocations read neighbouring elements.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  N: u32,
  inner: u32,
  num_lines: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
override IN_FLOAT: bool = true;
override IN_BOOL: bool = false;
override OUT_FLOAT: bool = true;
const WORKGROUP_SIZE_X: u32 = 64u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// Shared helpers (cumsum_common.wgsl).
// Shared by the cumsum kernels (emitted into their declaration blocks by opgen; not a
// standalone module). Values travel as the output dtype's bits in a u32: IN_BOOL,
// IN_FLOAT and OUT_FLOAT say what the input and output hold (a bool input is one byte
// per element, four to a word, and counts as 0 or 1).

// input element i converted to the output dtype (float -> int truncates, as torch)
fn load(i: u32) -> u32 {
  if (IN_BOOL) {
    let count = (input[i / 4u] >> (8u * (i % 4u))) & 0xffu;
    return select(count, bitcast<u32>(f32(count)), OUT_FLOAT);
  }
  let bits = input[i];
  if (IN_FLOAT == OUT_FLOAT) {
    return bits;
  }
  if (OUT_FLOAT) {
    return bitcast<u32>(f32(bitcast<i32>(bits)));
  }
  return bitcast<u32>(i32(bitcast<f32>(bits)));
}

// a + b in the output dtype (u32 addition is the wrapping i32 sum); 0u is zero in both
fn add(a: u32, b: u32) -> u32 {
  if (OUT_FLOAT) {
    return bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  }
  return a + b;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let line = linear_index(gid, num_workgroups);
  if (line >= params.num_lines) {
    return;
  }
  let inner = params.inner;
  let base = (line / inner) * params.N * inner + line % inner;
  var acc = 0u;
  for (var k = 0u; k < params.N; k++) {
    let i = base + k * inner;
    acc = add(acc, load(i));
    output[i] = acc;
  }
}
)wgsl";

inline constexpr uint32_t kCumsumStridedWorkgroupSizeX = 64;
inline constexpr uint32_t kCumsumStridedWorkgroupSizeY = 1;
inline constexpr uint32_t kCumsumStridedWorkgroupSizeZ = 1;
