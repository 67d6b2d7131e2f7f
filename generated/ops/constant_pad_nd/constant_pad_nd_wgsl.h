// @generated from codegen/specs/constant_pad_nd/constant_pad_nd.wgsl - DO NOT EDIT.
// wgsl-sha256: b82c1443bf744176bce3399cdb6b389026b31eaeae210c684cbaa84d61929d95
#pragma once

#include <cstdint>

inline constexpr const char* kConstantPadNdWGSL =
    R"wgsl(// constant_pad_nd: each output element copies its source element when its coordinates
// land inside the input, else writes `value` (bit-exact either way).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  out_dims: vec4<u32>,
  in_dims: vec4<u32>,
  left: vec4<u32>,
  value: f32,
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
  var rest = i;
  var src = 0u;
  var inside = true;
  var stride = 1u;
  for (var d = 3i; d >= 0; d--) {
    let coord = rest % params.out_dims[d];
    rest = rest / params.out_dims[d];
    // A coordinate left of the pad wraps to a huge u32 and fails the bound check.
    let in_coord = coord - params.left[d];
    inside = inside && in_coord < params.in_dims[d];
    src += in_coord * stride;
    stride *= params.in_dims[d];
  }
  output[i] = select(params.value, input[min(src, arrayLength(&input) - 1u)], inside);
}
)wgsl";

inline constexpr uint32_t kConstantPadNdWorkgroupSizeX = 256;
inline constexpr uint32_t kConstantPadNdWorkgroupSizeY = 1;
inline constexpr uint32_t kConstantPadNdWorkgroupSizeZ = 1;
