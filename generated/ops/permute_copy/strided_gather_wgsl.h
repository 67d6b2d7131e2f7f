// @generated from codegen/specs/permute_copy/strided_gather.wgsl - DO NOT EDIT.
// wgsl-sha256: 7716f63cd668b58ba6e5be383eb024a3aa7fcfdd64ff152994437276c602b6f0
#pragma once

#include <cstdint>

inline constexpr const char* kStridedGatherWGSL =
    R"wgsl(// strided_gather: out[c] = input[sum_k (c_k % in_mods[k]) * in_strides[k]] over the output
// coordinates c (dims right-aligned into 8 slots). permute_copy, expand_copy, repeat,
// as_strided_copy and copy are this one gather: permuted strides, stride 0 on a broadcast
// dim (expand_copy, copy's src), a coordinate that wraps around the input dim (repeat),
// the strides given (as_strided_copy).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  out_dims: array<vec4<u32>, 2>,
  in_mods: array<vec4<u32>, 2>,
  in_strides: array<vec4<u32>, 2>,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

fn dim_of(v: array<vec4<u32>, 2>, k: u32) -> u32 {
  return v[k / 4u][k % 4u];
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  var rest = i;
  var src = 0u;
  // the leading coordinates are 0 once rest is: they add nothing
  for (var k = 7i; k >= 0 && rest != 0u; k--) {
    let size = dim_of(params.out_dims, u32(k));
    src += (rest % size % dim_of(params.in_mods, u32(k))) * dim_of(params.in_strides, u32(k));
    rest = rest / size;
  }
  output[i] = input[src];
}
)wgsl";

inline constexpr uint32_t kStridedGatherWorkgroupSizeX = 256;
inline constexpr uint32_t kStridedGatherWorkgroupSizeY = 1;
inline constexpr uint32_t kStridedGatherWorkgroupSizeZ = 1;
