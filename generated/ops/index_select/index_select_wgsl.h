// @generated from codegen/specs/index_select/index_select.wgsl - DO NOT EDIT.
// wgsl-sha256: 767ea3bee54be0fc08eafbb42a6294070086c949f0d9623c2c10b24d0a01e6d9
#pragma once

#include <cstdint>

inline constexpr const char* kIndexSelectWGSL =
    R"wgsl(// index_select: out[outer, c, inner] = input[outer, index[c], inner], the tensors seen as
// [outer, in_len, inner] and [outer, out_len, inner] around dim, one 32-bit word per
// invocation; an index outside 0..in_len-1 writes a quiet NaN (as bits: no float constant).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  inner: u32,
  in_len: u32,
  out_len: u32,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read> index: array<i32>;
@group(0) @binding(3) var<storage, read_write> output: array<u32>;
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
  let inner = e % params.inner;
  let rest = e / params.inner;
  let c = rest % params.out_len;
  let outer = rest / params.out_len;
  let k = index[c];
  if (k < 0 || u32(k) >= params.in_len) {
    output[e] = QUIET_NAN_BITS;
    return;
  }
  output[e] = input[(outer * params.in_len + u32(k)) * params.inner + inner];
}
)wgsl";

inline constexpr uint32_t kIndexSelectWorkgroupSizeX = 256;
inline constexpr uint32_t kIndexSelectWorkgroupSizeY = 1;
inline constexpr uint32_t kIndexSelectWorkgroupSizeZ = 1;
