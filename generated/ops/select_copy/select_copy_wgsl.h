// @generated from codegen/specs/select_copy/select_copy.wgsl - DO NOT EDIT.
// wgsl-sha256: f077dde20b56c9ae80d8056a5a1415f95137e5644e9cb07f22aae24c247e3757
#pragma once

#include <cstdint>

inline constexpr const char* kSelectCopyWGSL =
    R"wgsl(// select_copy: out[o, r] = self[o, index, r] over the selected dim (outer o, inner r).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  inner: u32,
  size: u32,
  index: u32,
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

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  let outer = i / params.inner;
  let r = i % params.inner;
  output[i] = input[(outer * params.size + params.index) * params.inner + r];
}
)wgsl";

inline constexpr uint32_t kSelectCopyWorkgroupSizeX = 256;
inline constexpr uint32_t kSelectCopyWorkgroupSizeY = 1;
inline constexpr uint32_t kSelectCopyWorkgroupSizeZ = 1;
