// rms_norm_rows: one workgroup per row: out = x * inverseSqrt(mean(x^2) + eps) * weight.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  N: u32,
  num_rows: u32,
  eps: f32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
const WORKGROUP_SIZE_X: u32 = 64u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The workgroup's row index in a 1-D grid of rows that may spill into y.
fn row_index(wid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return wid.y * num_workgroups.x + wid.x;
}
// @opgen-end declarations

var<workgroup> partial: array<f32, WORKGROUP_SIZE_X>;

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
  let base = row * params.N;
  var sum = 0.0;
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    let v = input[base + c];
    sum += v * v;
  }
  partial[lid] = sum;
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid < stride) {
      partial[lid] += partial[lid + stride];
    }
  }
  workgroupBarrier();
  let inv = inverseSqrt(partial[0] / f32(params.N) + params.eps);
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    output[base + c] = input[base + c] * inv * weight[c];
  }
}
