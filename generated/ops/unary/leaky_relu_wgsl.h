// @generated from codegen/specs/unary/leaky_relu.wgsl - DO NOT EDIT.
// wgsl-sha256: 18eb69e0146a814dfc029d834fc81d2b630d6ae1a576cbeecaa5304af6f9a465
#pragma once

#include <cstdint>

inline constexpr const char* kLeakyReluWGSL =
    R"wgsl(// leaky_relu: out = x > 0 ? x : negative_slope * x, as torch computes it (so with a
// negative slope -0.0 gives 0.0 and 0.0 gives -0.0; NaN stays NaN).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_vec4: u32,
  negative_slope: f32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<f32>>;
const WORKGROUP_SIZE_X: u32 = 64u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_vec4) {
    return;
  }
  let x = input[i];
  output[i] = select(params.negative_slope * x, x, x > vec4<f32>(0.0));
}
)wgsl";

inline constexpr uint32_t kLeakyReluWorkgroupSizeX = 64;
inline constexpr uint32_t kLeakyReluWorkgroupSizeY = 1;
inline constexpr uint32_t kLeakyReluWorkgroupSizeZ = 1;
