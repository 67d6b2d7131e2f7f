// q4gsw_gemv_silu_mul: a Llama MLP's gated product for one input row (M = 1, a decode
// step): out[n] = silu(gate row n . x) * (up row n . x), both 4-bit linears in one
// dispatch. The rows layout of linear_q4gsw's GEMV (../linear_q4gsw/q4gsw_rows.wgsl):
// each thread dots ROWS_PER_THREAD rows of the gate and the same rows of the up matrix
// with one load of each input quad; the gate and up sums meet in one reduction (VALUES =
// 2 * ROWS_PER_THREAD: the gate's, then the up's).

const GATE: u32 = 0u;
const UP: u32 = 1u;

fn words_of(mat: u32, i: u32) -> vec4<u32> {
  if (mat == GATE) {
    return w_gate[i];
  }
  return w_up[i];
}

fn scale_of(mat: u32, i: u32) -> f32 {
  if (mat == GATE) {
    return scales_gate_load(i);
  }
  return scales_up_load(i);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let first = (linear_index(gid, num_workgroups) / WORKGROUP_SIZE_X) * ROWS;
  let n = first + lane_row(tid);
  var sums: array<f32, VALUES>;  // the gate's, then the up's
  for (var q = lane_quad(tid); q < params.K / 32u; q += K_LANES) {
    let x = input_quad(q);
    let gate = rows_dot(GATE, params.N, n, q, x);
    let up = rows_dot(UP, params.N, n, q, x);
    for (var r = 0u; r < ROWS_PER_THREAD; r++) {
      sums[r] += gate[r];
      sums[ROWS_PER_THREAD + r] += up[r];
    }
  }
  reduce_lanes(sums, tid);
  let row = first + tid;  // the block's row tid % 8 of its rows tid / 8
  if (tid < ROWS && row < params.N) {
    output_store(row, silu(row_total(tid / 8u, tid % 8u)) *
                      row_total(ROWS_PER_THREAD + tid / 8u, tid % 8u));
  }
}
