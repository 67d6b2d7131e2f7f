// q4gsw_gemv_qkv: three 4-bit linears of one input row (M = 1, a decode step's q, k and v
// projections) in one dispatch. The first ceil(N_q / ROWS) workgroups take q's rows, the
// next k's, the last v's; each workgroup runs the rows layout of linear_q4gsw's GEMV on
// its matrix (../linear_q4gsw/q4gsw_rows.wgsl: ROWS_PER_THREAD rows per thread, each input
// quad loaded once for them), so the three matrices cost one dispatch's fixed time. Which
// matrix is uniform per workgroup, so its branches do not diverge.

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
  var block = group - groups_q - groups_k;
  if (group < groups_q) {
    mat = 0u;
    block = group;
  } else if (group < groups_q + groups_k) {
    mat = 1u;
    block = group - groups_q;
  }
  let N = rows_of(mat);
  let first = block * ROWS;
  let n = first + lane_row(tid);
  reduce_lanes(rows_sums(mat, N, n, tid), tid);
  let row = first + tid;  // the block's row tid % 8 of its rows tid / 8
  if (tid < ROWS && row < N) {
    store_of(mat, row, row_total(tid / 8u, tid % 8u));
  }
}
