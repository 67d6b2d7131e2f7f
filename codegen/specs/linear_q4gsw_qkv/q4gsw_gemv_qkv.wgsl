// q4gsw_gemv_qkv: three 4-bit linears of one input row (M = 1, a decode step's q, k and v
// projections) in one dispatch. The first ceil(N_q / ROWS) workgroups take q's rows, the
// next k's, the last v's; each workgroup runs linear_q4gsw's GEMV on its matrix
// (../linear_q4gsw/q4gsw_lanes.wgsl: 32 threads per row, 8 interleaved rows, every load
// of a quad issued first), so the three matrices cost one dispatch's fixed time. Which
// matrix is uniform per workgroup, so its branches do not diverge.

const ROWS: u32 = 8u;  // weight rows per workgroup
const K_LANES: u32 = 32u;  // threads per weight row

var<workgroup> sums: array<f32, 256>;  // [thread]
var<workgroup> row_parts: array<f32, 64>;  // [row][k-lane / 4]: sums of 4 k-lanes

fn rows_of(mat: u32) -> u32 {
  return select(select(params.N_v, params.N_k, mat == 1u), params.N_q, mat == 0u);
}

fn words_of(mat: u32, i: u32) -> vec4<u32> {
  if (mat == 0u) {
    return w_q[i];
  }
  if (mat == 1u) {
    return w_k[i];
  }
  return w_v[i];
}

fn scale_of(mat: u32, i: u32) -> f32 {
  if (mat == 0u) {
    return scales_q_load(i);
  }
  if (mat == 1u) {
    return scales_k_load(i);
  }
  return scales_v_load(i);
}

fn store_of(mat: u32, n: u32, v: f32) {
  if (mat == 0u) {
    out_q_store(n, v);
  } else if (mat == 1u) {
    out_k_store(n, v);
  } else {
    out_v_store(n, v);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let group = linear_index(gid, num_workgroups) / WORKGROUP_SIZE_X;
  let groups_q = (params.N_q + ROWS - 1u) / ROWS;
  let groups_k = (params.N_k + ROWS - 1u) / ROWS;
  var mat = 2u;
  var first = group - groups_q - groups_k;
  if (group < groups_q) {
    mat = 0u;
    first = group;
  } else if (group < groups_q + groups_k) {
    mat = 1u;
    first = group - groups_q;
  }
  let N = rows_of(mat);
  let n = first * ROWS + (tid / 4u) % ROWS;
  var sum = 0.0;
  if (n < N) {
    let quads = params.K / 32u;
    var q = tid % 4u + 4u * (tid / 32u);
    for (; q + K_LANES < quads; q += 2u * K_LANES) {
      sum += quad_dot(mat, N, n, q) + quad_dot(mat, N, n, q + K_LANES);
    }
    if (q < quads) {
      sum += quad_dot(mat, N, n, q);
    }
  }
  sums[tid] = sum;
  workgroupBarrier();
  if (tid < 64u) {  // row tid / 8, the 4 adjacent k-lanes of thread block tid % 8
    let at = (tid % 8u) * 32u + (tid / 8u) * 4u;
    row_parts[tid] = sums[at] + sums[at + 1u] + sums[at + 2u] + sums[at + 3u];
  }
  workgroupBarrier();
  let row = first * ROWS + tid;
  if (tid < ROWS && row < N) {
    var total = 0.0;
    for (var p = 0u; p < 8u; p++) {
      total += row_parts[tid * 8u + p];
    }
    store_of(mat, row, total);
  }
}
