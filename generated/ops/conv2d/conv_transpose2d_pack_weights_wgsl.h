// @generated from codegen/specs/conv2d/conv_transpose2d_pack_weights.wgsl - DO NOT EDIT.
// wgsl-sha256: ec18231bb733cc5b4031d0d12b527a0878e9de861a21045bc902c1d429e721b4
#pragma once

#include <cstdint>

inline constexpr const char* kConvTranspose2dPackWeightsWGSL =
    R"wgsl(// conv_transpose2d_pack_weights: a transposed conv's weight [IC, OC, KH, KW] -> wpack
// [KH * KW][IC][ceil(OC / 4)] vec4s for conv_transpose2d_gemm: the tap-major layout of
// conv2d_pack_weights, 4 output channels per vec4, zero past OC. One invocation per vec4.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  B: u32,
  IC: u32,
  IH: u32,
  IW: u32,
  OC: u32,
  OH: u32,
  OW: u32,
  KH: u32,
  KW: u32,
  sH: u32,
  sW: u32,
  pH: u32,
  pW: u32,
  dH: u32,
  dW: u32,
  groups: u32,
  split: u32,
  has_bias: u32,
  has_min: u32,
  has_max: u32,
  min_value: f32,
  max_value: f32,
  M: u32,
  N: u32,
  K: u32,
  batch: u32,
  k_chunk: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> weight: array<f32>;
@group(0) @binding(2) var<storage, read_write> wpack: array<vec4<f32>>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

// Output channel oc of input channel ic at tap `tap` (0 past OC).
fn tap_weight(ic: u32, oc: u32, tap: u32) -> f32 {
  if (oc >= params.OC) {
    return 0.0;
  }
  return weight[(ic * params.OC + oc) * params.KH * params.KW + tap];
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  let M4 = (params.OC + 3u) / 4u;
  if (i >= params.KH * params.KW * params.IC * M4) {
    return;
  }
  let m = (i % M4) * 4u;
  let ic = (i / M4) % params.IC;
  let tap = i / (M4 * params.IC);
  wpack[i] = vec4<f32>(tap_weight(ic, m, tap), tap_weight(ic, m + 1u, tap),
                       tap_weight(ic, m + 2u, tap), tap_weight(ic, m + 3u, tap));
}
)wgsl";

inline constexpr uint32_t kConvTranspose2dPackWeightsWorkgroupSizeX = 256;
inline constexpr uint32_t kConvTranspose2dPackWeightsWorkgroupSizeY = 1;
inline constexpr uint32_t kConvTranspose2dPackWeightsWorkgroupSizeZ = 1;
