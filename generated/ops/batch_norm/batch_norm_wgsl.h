// @generated from codegen/specs/batch_norm/batch_norm.wgsl - DO NOT EDIT.
// wgsl-sha256: 494188560b72622e36dab8f770f5d7a6a58b65fe100b0582939236b714603193
#pragma once

#include <cstdint>

inline constexpr const char* kBatchNormWGSL =
    R"wgsl(// batch_norm (inference): y = (x - mean[c]) / sqrt(variance[c] + eps) * weight[c] + bias[c];
// an absent weight / bias (dummy binding, has_* = 0) means scale 1 / shift 0.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  C: u32,
  plane: u32,
  num_elements: u32,
  eps: f32,
  has_weight: u32,
  has_bias: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read> mean: array<f32>;
@group(0) @binding(5) var<storage, read> variance: array<f32>;
@group(0) @binding(6) var<storage, read_write> output: array<f32>;
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
  let c = (i / params.plane) % params.C;
  var scale = 1.0 / sqrt(variance[c] + params.eps);
  if (params.has_weight != 0u) {
    scale = scale * weight[c];
  }
  var shift = 0.0;
  if (params.has_bias != 0u) {
    shift = bias[c];
  }
  output[i] = (input[i] - mean[c]) * scale + shift;
}
)wgsl";

inline constexpr uint32_t kBatchNormWorkgroupSizeX = 256;
inline constexpr uint32_t kBatchNormWorkgroupSizeY = 1;
inline constexpr uint32_t kBatchNormWorkgroupSizeZ = 1;
