// @generated from codegen/specs/index_tensor/index_tensor.wgsl - DO NOT EDIT.
// wgsl-sha256: 51c4a30ff5bac9e86d69bf5a4d6172232ea9d938fb9c9f2aaa907f1e8ab17bc0
#pragma once

#include <cstdint>

inline constexpr const char* kIndexTensorWGSL =
    R"wgsl(// index_tensor: out[o, j, r] = self[o, idx_first[j], ..., idx_last[j], r]: the index
// tensors of the present entries address one offset inside the indexed block of dims.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  N: u32,
  inner: u32,
  block: u32,
  num_elements: u32,
  sizes: vec4<u32>,
  block_strides: vec4<u32>,
  present: vec4<u32>,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> idx0: array<i32>;
@group(0) @binding(3) var<storage, read> idx1: array<i32>;
@group(0) @binding(4) var<storage, read> idx2: array<i32>;
@group(0) @binding(5) var<storage, read> idx3: array<i32>;
@group(0) @binding(6) var<storage, read_write> output: array<f32>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

// Entry k's index for output position j, wrapped (negative) and clamped to dim k.
fn entry_offset(k: u32, j: u32) -> u32 {
  var v = 0i;
  switch k {
    case 0u: { v = idx0[j]; }
    case 1u: { v = idx1[j]; }
    case 2u: { v = idx2[j]; }
    default: { v = idx3[j]; }
  }
  let size = i32(params.sizes[k]);
  v = select(v, v + size, v < 0);
  return u32(clamp(v, 0, size - 1)) * params.block_strides[k];
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  let r = i % params.inner;
  let j = (i / params.inner) % params.N;
  let o = i / (params.inner * params.N);
  var offset = 0u;
  for (var k = 0u; k < 4u; k++) {
    if (params.present[k] != 0u) {
      offset += entry_offset(k, j);
    }
  }
  output[i] = input[(o * params.block + offset) * params.inner + r];
}
)wgsl";

inline constexpr uint32_t kIndexTensorWorkgroupSizeX = 256;
inline constexpr uint32_t kIndexTensorWorkgroupSizeY = 1;
inline constexpr uint32_t kIndexTensorWorkgroupSizeZ = 1;
