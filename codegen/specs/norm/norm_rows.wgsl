// norm_rows: one workgroup per contiguous row: mean, then the biased variance from the
// deviations (two passes, numerically stable), then (x - mean) * rstd * weight + bias.
// The affine entry of element c is (row % groups) * (row_len / inner) + c / inner.

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
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;
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
  let base = row * params.row_len;
  let n = f32(params.row_len);

  var sum = 0.0;
  for (var c = lid; c < params.row_len; c += WORKGROUP_SIZE_X) {
    sum += input[base + c];
  }
  partial[lid] = sum;
  let row_mean = workgroup_sum(lid) / n;

  var squares = 0.0;
  for (var c = lid; c < params.row_len; c += WORKGROUP_SIZE_X) {
    let d = input[base + c] - row_mean;
    squares += d * d;
  }
  partial[lid] = squares;
  let row_rstd = inverseSqrt(workgroup_sum(lid) / n + params.eps);

  let affine_base = (row % params.groups) * (params.row_len / params.inner);
  for (var c = lid; c < params.row_len; c += WORKGROUP_SIZE_X) {
    let a = affine_base + c / params.inner;
    var y = (input[base + c] - row_mean) * row_rstd;
    if (params.has_weight != 0u) {
      y *= weight[a];
    }
    if (params.has_bias != 0u) {
      y += bias[a];
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
