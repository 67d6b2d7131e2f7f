// q4gsw_gemv_rows: linear_q4gsw for one input row (M = 1, a decode step), ROWS_PER_THREAD
// weight rows per thread (q4gsw_rows.wgsl), so a workgroup takes 8 * ROWS_PER_THREAD rows.

fn words_of(mat: u32, i: u32) -> vec4<u32> {
  return w[i];
}

fn scale_of(mat: u32, i: u32) -> f32 {
  return scales_load(i);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let first = (linear_index(gid, num_workgroups) / WORKGROUP_SIZE_X) * ROWS;
  let n = first + lane_row(tid);
  reduce_lanes(rows_sums(0u, params.N, n, tid), tid);
  let row = first + tid;  // the block's row tid % 8 of its rows tid / 8
  if (tid < ROWS && row < params.N) {
    store_output(0u, row, row_total(tid / 8u, tid % 8u));
  }
}
