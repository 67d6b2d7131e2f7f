// @generated from codegen/specs/cat/cat_copy_vec4.wgsl - DO NOT EDIT.
// wgsl-sha256: 4cc5860a6f4add6a1db570a30cd90056fd6b24cee28566e067372ce557cb0ae8
#pragma once

#include <cstdint>

inline constexpr const char* kCatCopyVec4WGSL =
    R"wgsl(// cat_copy_vec4: one entry of a cat, four 32-bit elements (one vec4) per invocation;
// inner and num_elements count vec4s. Input element
// [o, j, r] of [outer, in_len, inner] goes to [o, offset + j, r] of [outer, out_len, inner].

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  inner: u32,
  in_len: u32,
  out_len: u32,
  offset: u32,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<u32>>;
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
  let e = linear_index(gid, num_workgroups);
  if (e >= params.num_elements) {
    return;
  }
  let r = e % params.inner;
  let row = e / params.inner;
  let j = row % params.in_len;
  let o = row / params.in_len;
  output[(o * params.out_len + params.offset + j) * params.inner + r] = input[e];
}
)wgsl";

inline constexpr uint32_t kCatCopyVec4WorkgroupSizeX = 256;
inline constexpr uint32_t kCatCopyVec4WorkgroupSizeY = 1;
inline constexpr uint32_t kCatCopyVec4WorkgroupSizeZ = 1;
