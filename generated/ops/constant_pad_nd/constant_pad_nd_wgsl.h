// @generated from codegen/specs/constant_pad_nd/constant_pad_nd.wgsl - DO NOT EDIT.
// wgsl-sha256: ff467aeeb3ec295fbf1b49f9dc4fcd4abc2644a24056d72f18600750ebe34de6
#pragma once

#include <cstdint>

inline constexpr const char* kConstantPadNdWGSL =
    R"wgsl(// constant_pad_nd: each output element copies its source element when its coordinates
// land inside the input, else writes `value` (bit-exact either way). Each invocation
// writes 4 consecutive elements as one vec4 (tensor buffers are whole vec4s), finding
// their row's source once.

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
@group(0) @binding(2) var<storage, read_write> output: array<vec4<f32>>;
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
  let i0 = linear_index(gid, num_workgroups) * 4u;
  if (i0 >= params.num_elements) {
    return;
  }
  let W = params.out_dims[3];
  var row = i0 / W;
  var w = i0 % W;
  var src = row_source(row);
  var v = vec4<f32>(params.value);
  for (var j = 0u; j < 4u && i0 + j < params.num_elements; j++) {
    if (w == W) {  // the next row (W < 4 or a row end inside this vec4)
      row++;
      w = 0u;
      src = row_source(row);
    }
    // a column left of the pad wraps to a huge u32 and fails the bound check
    let in_w = w - params.left[3];
    if (src.y != 0u && in_w < params.in_dims[3]) {
      v[j] = input[src.x + in_w];
    }
    w++;
  }
  output[i0 / 4u] = v;
}

// Output row `row` (over dims 0..2): the input index of its column 0, and whether the
// row lies inside the input (1) or in the padding (0).
fn row_source(row: u32) -> vec2<u32> {
  var rest = row;
  var src = 0u;
  var inside = true;
  var stride = params.in_dims[3];
  for (var d = 2i; d >= 0; d--) {
    let coord = rest % params.out_dims[d];
    rest = rest / params.out_dims[d];
    let in_coord = coord - params.left[d];
    inside = inside && in_coord < params.in_dims[d];
    src += in_coord * stride;
    stride *= params.in_dims[d];
  }
  return vec2<u32>(src, u32(inside));
}
)wgsl";

inline constexpr uint32_t kConstantPadNdWorkgroupSizeX = 256;
inline constexpr uint32_t kConstantPadNdWorkgroupSizeY = 1;
inline constexpr uint32_t kConstantPadNdWorkgroupSizeZ = 1;
