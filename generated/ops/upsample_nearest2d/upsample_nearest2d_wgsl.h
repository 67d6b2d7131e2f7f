// @generated from codegen/specs/upsample_nearest2d/upsample_nearest2d.wgsl - DO NOT EDIT.
// wgsl-sha256: 41221e10cfb1ac0d127110d1fffe4fb1b8b3d49266e09eeb8b67c76f3f031f4d
#pragma once

#include <cstdint>

inline constexpr const char* kUpsampleNearest2dWGSL =
    R"wgsl(// upsample_nearest2d: each output pixel copies input[ih, iw] with ATen's legacy nearest
// source index ih = floor(oh * IH / OH) (integer division, not half-pixel).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  C: u32,
  IH: u32,
  IW: u32,
  OH: u32,
  OW: u32,
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
  let ow = i % params.OW;
  let oh = (i / params.OW) % params.OH;
  let plane = i / (params.OW * params.OH);
  let ih = min(oh * params.IH / params.OH, params.IH - 1u);
  let iw = min(ow * params.IW / params.OW, params.IW - 1u);
  output[i] = input[(plane * params.IH + ih) * params.IW + iw];
}
)wgsl";

inline constexpr uint32_t kUpsampleNearest2dWorkgroupSizeX = 256;
inline constexpr uint32_t kUpsampleNearest2dWorkgroupSizeY = 1;
inline constexpr uint32_t kUpsampleNearest2dWorkgroupSizeZ = 1;
