// @generated from codegen/specs/unary/relu.wgsl - DO NOT EDIT.
// wgsl-sha256: 3dac095ee2082f341269fff38f87bee753083e1a21f3df7950a2be75710bb273
#pragma once

#include <cstdint>

inline constexpr const char* kReluWGSL =
    R"wgsl(// relu: out = x < 0 ? 0 : x, as torch computes it: NaN and -0.0 pass through. The test is
// done on the bits, because GPU compilers may turn a float compare-and-select into max(),
// which drops NaN (seen on NVIDIA's Vulkan driver).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_vec4: u32,
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
  let bits = bitcast<vec4<u32>>(x);
  let magnitude = bits & vec4<u32>(0x7fffffffu);
  // negative: sign set, not -0.0, not NaN
  let negative = ((bits >> vec4<u32>(31u)) == vec4<u32>(1u)) &
                 (magnitude != vec4<u32>(0u)) & (magnitude <= vec4<u32>(0x7f800000u));
  output[i] = select(x, vec4<f32>(0.0), negative);
}
)wgsl";

inline constexpr uint32_t kReluWorkgroupSizeX = 64;
inline constexpr uint32_t kReluWorkgroupSizeY = 1;
inline constexpr uint32_t kReluWorkgroupSizeZ = 1;
