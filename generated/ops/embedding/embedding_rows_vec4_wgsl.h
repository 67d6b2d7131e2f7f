// @generated from codegen/specs/embedding/embedding_rows_vec4.wgsl - DO NOT EDIT.
// wgsl-sha256: e46eb3e4a2234d91d5a3e5a34e3c87a102cdec042623ccbf04bb3b8584a94de8
#pragma once

#include <cstdint>

inline constexpr const char* kEmbeddingRowsVec4WGSL =
    R"wgsl(// embedding_rows_vec4: embedding_rows a vec4 at a time (row_len counts vec4s): output vec4 e
// is vec4 e % row_len of weight row indices[e / row_len]; an index outside 0..num_rows-1
// writes quiet NaNs (as bits: no float constant).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  row_len: u32,
  num_rows: u32,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> weight: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> indices: array<i32>;
@group(0) @binding(3) var<storage, read_write> output: array<vec4<u32>>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

const QUIET_NAN_BITS: u32 = 0x7fc00000u;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let e = linear_index(gid, num_workgroups);
  if (e >= params.num_elements) {
    return;
  }
  let index = indices[e / params.row_len];
  if (index < 0 || u32(index) >= params.num_rows) {
    output[e] = vec4<u32>(QUIET_NAN_BITS);
    return;
  }
  output[e] = weight[u32(index) * params.row_len + e % params.row_len];
}
)wgsl";

inline constexpr uint32_t kEmbeddingRowsVec4WorkgroupSizeX = 256;
inline constexpr uint32_t kEmbeddingRowsVec4WorkgroupSizeY = 1;
inline constexpr uint32_t kEmbeddingRowsVec4WorkgroupSizeZ = 1;
