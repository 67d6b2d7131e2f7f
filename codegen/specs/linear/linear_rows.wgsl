// linear_rows: out[m, n] = dot(input[m, :], weight[n, :]) + bias[n], one invocation per
// output element (input viewed as [M, K], weight [N, K]). A correct baseline: the tiled
// GEMM family (the GEMM issue) replaces it where it is slow.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  M: u32,
  N: u32,
  K: u32,
  has_bias: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;
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
  if (i >= params.M * params.N) {
    return;
  }
  let m = i / params.N;
  let n = i % params.N;
  let x = m * params.K;
  let w = n * params.K;
  var acc = 0.0;
  for (var k = 0u; k < params.K; k++) {
    acc = fma(input[x + k], weight[w + k], acc);
  }
  if (params.has_bias != 0u) {
    acc += bias[n];
  }
  output[i] = acc;
}
