// gemm_split_sum: adds the K slices' partial sums of each output element, then applies
// the epilogue (gemm_tile.wgsl).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  M: u32,
  N: u32,
  K: u32,
  batch: u32,
  a_batch_stride: u32,
  b_batch_stride: u32,
  k_chunk: u32,
  split: u32,
  head_rows: u32,
  has_bias: u32,
  bias_stride_m: u32,
  bias_stride_n: u32,
  alpha: f32,
  beta: f32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> partial: array<f32>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// Shared helpers (gemm_epilogue.wgsl).
// Shared by every GEMM kernel (emitted into their declaration blocks by opgen).

// alpha * (A @ B) + beta * bias, the bias broadcast by its strides (linear: beta = 1).
fn epilogue(acc: f32, m: u32, n: u32) -> f32 {
  var v = params.alpha * acc;
  if (params.has_bias != 0u) {
    v += params.beta * bias[m * params.bias_stride_m + n * params.bias_stride_n];
  }
  return v;
}

// The tiled kernels' output element of C[z][m][n] (gemm_tile.wgsl): row-major [batch, M, N].
fn out_index(z: u32, m: u32, n: u32) -> u32 {
  return (z * params.M + m) * params.N + n;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  let numel = params.batch * params.M * params.N;
  let first = params.head_rows * params.N;  // rows the tile pass stored whole
  if (i >= numel || i < first) {
    return;
  }
  var acc = 0.0;
  for (var s = 0u; s < params.split; s++) {
    acc += partial[s * (numel - first) + i - first];
  }
  let mn = i % (params.M * params.N);
  output[i] = epilogue(acc, mn / params.N, mn % params.N);
}
