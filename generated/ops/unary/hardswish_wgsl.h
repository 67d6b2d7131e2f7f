// @generated from codegen/specs/unary/hardswish.wgsl - DO NOT EDIT.
// wgsl-sha256: ba9b377a39292beb32e9bacd71f774349dcffde64f6771e5a099e3b2a7d507c1
#pragma once

#include <cstdint>

inline constexpr const char* kHardswishWGSL =
    R"wgsl(// hardswish: x * min(max(x + 3, 0), 6) / 6 in torch's order of operations, so
// hardswish(-inf) = -inf * 0 = NaN and x <= -3 gives -0.0, as in torch. A NaN x makes the
// product NaN whatever the clamp gives.

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
// @opgen-end declarations

// The entry point is in unary_map.wgsl.
fn apply(x: vec4<f32>) -> vec4<f32> {
  return x * clamp(x + 3.0, vec4<f32>(0.0), vec4<f32>(6.0)) / 6.0;
}
)wgsl";

inline constexpr uint32_t kHardswishWorkgroupSizeX = 128;
inline constexpr uint32_t kHardswishWorkgroupSizeY = 1;
inline constexpr uint32_t kHardswishWorkgroupSizeZ = 1;
