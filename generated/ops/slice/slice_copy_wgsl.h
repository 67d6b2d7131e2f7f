// @generated from codegen/specs/slice/slice_copy.wgsl - DO NOT EDIT.
// wgsl-sha256: a0b5321d586fca24ab58d40ee0d9d18b0b3a56f2abfbb2fe4c1851b45ade17a2
#pragma once

#include <cstdint>

inline constexpr const char* kSliceCopyWGSL =
    R"wgsl(// slice_copy: out[outer, c, inner] = input[outer, start + c * step, inner], the tensor
// seen as [outer, in_len, inner] around the sliced dim. 32-bit elements copied as bits.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  inner: u32,
  in_len: u32,
  out_len: u32,
  start: u32,
  step: u32,
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
  let inner = i % params.inner;
  let rest = i / params.inner;
  let c = rest % params.out_len;
  let outer = rest / params.out_len;
  output[i] = input[(outer * params.in_len + params.start + c * params.step) * params.inner + inner];
}
)wgsl";

inline constexpr uint32_t kSliceCopyWorkgroupSizeX = 256;
inline constexpr uint32_t kSliceCopyWorkgroupSizeY = 1;
inline constexpr uint32_t kSliceCopyWorkgroupSizeZ = 1;
