// @generated from codegen/specs/permute_copy/permute_copy.wgsl - DO NOT EDIT.
// wgsl-sha256: c83c455987187095858a2e764407ebb686e6b94c7e64c567ab5150eefab0c825
#pragma once

#include <cstdint>

inline constexpr const char* kPermuteCopyWGSL =
    R"wgsl(// permute_copy: each output element reads the input element whose coordinates are the
// output's, permuted (in_strides holds the input stride of each output dim).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  out_dims: vec4<u32>,
  in_strides: vec4<u32>,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
const WORKGROUP_SIZE_X: u32 = 256u;
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
  if (i >= params.num_elements) {
    return;
  }
  var rest = i;
  var src = 0u;
  for (var d = 3i; d >= 0; d--) {
    src += (rest % params.out_dims[d]) * params.in_strides[d];
    rest = rest / params.out_dims[d];
  }
  output[i] = input[src];
}
)wgsl";

inline constexpr uint32_t kPermuteCopyWorkgroupSizeX = 256;
inline constexpr uint32_t kPermuteCopyWorkgroupSizeY = 1;
inline constexpr uint32_t kPermuteCopyWorkgroupSizeZ = 1;
