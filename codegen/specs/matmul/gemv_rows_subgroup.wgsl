// gemv_rows_subgroup: gemv_rows (same lanes, loads and epilogue) with the lanes' sums
// reduced by subgroupAdd instead of a six-step tree through workgroup memory: one
// subgroup reduction, then, where a subgroup is narrower than a row's 64 lanes, lane 0
// adds the row's subgroup sums after one barrier. Runs on devices with `subgroups`
// (sizes 4..128); gemv_rows is its fallback.
// Like every subgroup reduction we know of, it relies on a 1-D workgroup being cut into
// subgroups of consecutive local_invocation_index values (all full here: 256 is a
// multiple of every subgroup size).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
enable subgroups;
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
@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;
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
// Shared helpers (gemv_rows_dot.wgsl).
// Shared by the GEMV kernels of linear (emitted into their declaration blocks by opgen): one
// weight row per LANES threads, each lane dotting its share of the row with every input
// row, and the store of a row's reduced sums. The kernels differ in how they reduce.

const LANES: u32 = 64u;  // threads per weight row

// Lane `lane`'s partial dot products of weight row n with input rows 0..3 (x..w of the
// first vec4) and 4..7 (the second); zeros past N.
fn lane_dots(n: u32, lane: u32) -> array<vec4<f32>, 2> {
  let k4 = params.K / 4u;
  var lo = vec4<f32>();
  var hi = vec4<f32>();
  if (n < params.N) {
    let w0 = n * k4;
    for (var k = lane; k < k4; k += LANES) {
      let w = b[w0 + k];
      for (var m = 0u; m < min(params.M, 4u); m++) {
        lo[m] += dot(a[m * k4 + k], w);
      }
      for (var m = 4u; m < params.M; m++) {
        hi[m - 4u] += dot(a[m * k4 + k], w);
      }
    }
  }
  return array<vec4<f32>, 2>(lo, hi);
}

// Output column n of every input row, from the row's summed dot products.
fn store_column(n: u32, total: array<vec4<f32>, 2>) {
  for (var m = 0u; m < params.M; m++) {
    output[m * params.N + n] = epilogue(total[m / 4u][m % 4u], m, n);
  }
}
// @opgen-end declarations

const MAX_SUBGROUPS: u32 = 64u;  // WORKGROUP_SIZE_X / the smallest subgroup size (4)

var<workgroup> partial_lo: array<vec4<f32>, MAX_SUBGROUPS>;  // input rows 0..3, per subgroup
var<workgroup> partial_hi: array<vec4<f32>, MAX_SUBGROUPS>;  // input rows 4..7

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>,
        @builtin(subgroup_size) subgroup_size: u32,
        @builtin(subgroup_invocation_id) subgroup_lane: u32) {
  let n = linear_index(gid, num_workgroups) / LANES;
  let lane = tid % LANES;
  let dots = lane_dots(n, lane);
  let lo = dots[0];  // input rows 0..3
  let hi = dots[1];  // input rows 4..7
  // A subgroup wider than a row (128 lanes) holds two rows: each row's lanes are reduced
  // in turn, the other row's lanes adding zeros. select, not a product, so a NaN or inf
  // of one row never reaches the other.
  let span = min(subgroup_size, LANES);  // lanes each reduction sums
  let slot = subgroup_lane / LANES;
  var row_lo = vec4<f32>();
  var row_hi = vec4<f32>();
  for (var r = 0u; r < max(subgroup_size / LANES, 1u); r++) {
    let sum_lo = subgroupAdd(select(vec4<f32>(), lo, slot == r));
    if (slot == r) {
      row_lo = sum_lo;
    }
    if (params.M > 4u) {
      let sum_hi = subgroupAdd(select(vec4<f32>(), hi, slot == r));
      if (slot == r) {
        row_hi = sum_hi;
      }
    }
  }
  if (tid % span == 0u) {
    partial_lo[tid / span] = row_lo;
    partial_hi[tid / span] = row_hi;
  }
  workgroupBarrier();
  if (lane == 0u && n < params.N) {
    var total_lo = vec4<f32>();
    var total_hi = vec4<f32>();
    for (var s = tid / span; s < (tid + LANES) / span; s++) {
      total_lo += partial_lo[s];
      total_hi += partial_hi[s];
    }
    store_column(n, array<vec4<f32>, 2>(total_lo, total_hi));
  }
}
