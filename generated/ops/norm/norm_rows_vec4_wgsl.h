// @generated from codegen/specs/norm/norm_rows_vec4.wgsl - DO NOT EDIT.
// wgsl-sha256: 218d070fb507605f9c91c66e666913a83bdd92adbd070c8995ea07927835b6b4
#pragma once

#include <cstdint>

inline constexpr const char* kNormRowsVec4WGSL =
    R"wgsl(// norm_rows_vec4: norm_rows on rows of whole vec4s. A vec4 covers four affine entries
// (layer norm: inner == 1) or lies within one (group norm: inner % 4 == 0).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  row_len: u32,
  num_rows: u32,
  inner: u32,
  groups: u32,
  eps: f32,
  has_weight: u32,
  has_bias: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> mean: array<f32>;
@group(0) @binding(6) var<storage, read_write> rstd: array<f32>;
override WRITE_MEAN: bool = true;
override WRITE_RSTD: bool = true;
const WORKGROUP_SIZE_X: u32 = 128u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The workgroup's row index in a 1-D grid of rows that may spill into y.
fn row_index(wid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return wid.y * num_workgroups.x + wid.x;
}
// Shared helpers (norm_common.wgsl).
// Shared by the norm kernels (emitted into their declaration blocks by opgen; not a
// standalone module).

var<workgroup> partial: array<f32, WORKGROUP_SIZE_X>;

// Tree sum of `partial`; every invocation gets the total (the caller's next write to
// `partial` is safe: the last barrier orders it after every read).
fn workgroup_sum(lid: u32) -> f32 {
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid < stride) {
      partial[lid] += partial[lid + stride];
    }
  }
  workgroupBarrier();
  let total = partial[0];
  workgroupBarrier();
  return total;
}
// @opgen-end declarations

fn lane_sum(v: vec4<f32>) -> f32 {
  return (v.x + v.y) + (v.z + v.w);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  let lid = lid3.x;
  // uniform control flow: the whole workgroup leaves together
  if (row >= params.num_rows) {
    return;
  }
  let n4 = params.row_len / 4u;
  let base = row * n4;
  let n = f32(params.row_len);

  var sum = vec4<f32>(0.0);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    sum += input[base + c];
  }
  partial[lid] = lane_sum(sum);
  let row_mean = workgroup_sum(lid) / n;

  var squares = vec4<f32>(0.0);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    let d = input[base + c] - row_mean;
    squares += d * d;
  }
  partial[lid] = lane_sum(squares);
  let row_rstd = inverseSqrt(workgroup_sum(lid) / n + params.eps);

  let affine_base = (row % params.groups) * (params.row_len / params.inner);
  let step = select(0u, 1u, params.inner == 1u);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    let a = affine_base + (c * 4u) / params.inner;
    var y = (input[base + c] - row_mean) * row_rstd;
    if (params.has_weight != 0u) {
      y *= vec4<f32>(weight[a], weight[a + step], weight[a + 2u * step], weight[a + 3u * step]);
    }
    if (params.has_bias != 0u) {
      y += vec4<f32>(bias[a], bias[a + step], bias[a + 2u * step], bias[a + 3u * step]);
    }
    output[base + c] = y;
  }
  if (lid == 0u) {
    if (WRITE_MEAN) {
      mean[row] = row_mean;
    }
    if (WRITE_RSTD) {
      rstd[row] = row_rstd;
    }
  }
}
)wgsl";

inline constexpr uint32_t kNormRowsVec4WorkgroupSizeX = 128;
inline constexpr uint32_t kNormRowsVec4WorkgroupSizeY = 1;
inline constexpr uint32_t kNormRowsVec4WorkgroupSizeZ = 1;
