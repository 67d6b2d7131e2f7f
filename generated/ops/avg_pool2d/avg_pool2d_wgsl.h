// @generated from codegen/specs/avg_pool2d/avg_pool2d.wgsl - DO NOT EDIT.
// wgsl-sha256: fbe1ee654213a7ca74c7c20284172b543d3673de385c6d0ffd6a3a4cc20ee9f3
#pragma once

#include <cstdint>

inline constexpr const char* kAvgPool2dWGSL =
    R"wgsl(// avg_pool2d: one invocation per output element sums its window (padded cells count as
// zeros) and divides by divisor_override, the window clipped to the padded input
// (count_include_pad) or the window clipped to the input, as torch does.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  IH: u32,
  IW: u32,
  OH: u32,
  OW: u32,
  kH: u32,
  kW: u32,
  sH: u32,
  sW: u32,
  pH: u32,
  pW: u32,
  num_elements: u32,
  count_include_pad: u32,
  divisor: i32,
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
  let base = plane * params.IH * params.IW;
  let IH = i32(params.IH);
  let IW = i32(params.IW);

  // the window, clipped to the padded input, then to the input
  let h0 = i32(oh * params.sH) - i32(params.pH);
  let w0 = i32(ow * params.sW) - i32(params.pW);
  let h1 = min(h0 + i32(params.kH), IH + i32(params.pH));
  let w1 = min(w0 + i32(params.kW), IW + i32(params.pW));
  let padded_size = (h1 - h0) * (w1 - w0);
  let ih0 = max(h0, 0);
  let iw0 = max(w0, 0);
  let ih1 = min(h1, IH);
  let iw1 = min(w1, IW);
  if (ih0 >= ih1 || iw0 >= iw1) {
    output[i] = 0.0;
    return;
  }

  var sum = 0.0;
  for (var ih = ih0; ih < ih1; ih++) {
    let row = base + u32(ih * IW);
    for (var iw = iw0; iw < iw1; iw++) {
      sum += input[row + u32(iw)];
    }
  }
  var divisor = params.divisor;
  if (divisor == 0) {
    divisor = select((ih1 - ih0) * (iw1 - iw0), padded_size, params.count_include_pad != 0u);
  }
  output[i] = sum / f32(divisor);
}
)wgsl";

inline constexpr uint32_t kAvgPool2dWorkgroupSizeX = 256;
inline constexpr uint32_t kAvgPool2dWorkgroupSizeY = 1;
inline constexpr uint32_t kAvgPool2dWorkgroupSizeZ = 1;
