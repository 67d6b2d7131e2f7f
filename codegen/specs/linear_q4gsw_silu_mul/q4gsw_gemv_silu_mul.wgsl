// q4gsw_gemv_silu_mul: a Llama MLP's gated product for one input row (M = 1, a decode
// step): out[n] = silu(gate row n . x) * (up row n . x), both 4-bit linears in one
// dispatch. linear_q4gsw's GEMV lane layout (../linear_q4gsw/q4gsw_lanes.wgsl: 32 threads
// per row, 8 interleaved rows, every load of a quad issued first), each thread reading its
// quads of both matrices, so twice the loads are in flight; the gate and up sums meet in
// one reduction.

const ROWS: u32 = 8u;  // weight rows per workgroup
const K_LANES: u32 = 32u;  // threads per weight row
const GATE: u32 = 0u;
const UP: u32 = 1u;

var<workgroup> sums: array<vec2<f32>, 256>;  // [thread]: gate, up
var<workgroup> row_parts: array<vec2<f32>, 64>;  // [row][k-lane / 4]: sums of 4 k-lanes

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
  let group = linear_index(gid, num_workgroups) / WORKGROUP_SIZE_X;
  let n = group * ROWS + (tid / 4u) % ROWS;
  var sum = vec2<f32>();
  if (n < params.N) {
    let quads = params.K / 32u;
    var q = tid % 4u + 4u * (tid / 32u);
    for (; q + K_LANES < quads; q += 2u * K_LANES) {
      sum += vec2<f32>(quad_dot(GATE, params.N, n, q) + quad_dot(GATE, params.N, n, q + K_LANES),
                       quad_dot(UP, params.N, n, q) + quad_dot(UP, params.N, n, q + K_LANES));
    }
    if (q < quads) {
      sum += vec2<f32>(quad_dot(GATE, params.N, n, q), quad_dot(UP, params.N, n, q));
    }
  }
  sums[tid] = sum;
  workgroupBarrier();
  if (tid < 64u) {  // row tid / 8, the 4 adjacent k-lanes of thread block tid % 8
    let at = (tid % 8u) * 32u + (tid / 8u) * 4u;
    row_parts[tid] = sums[at] + sums[at + 1u] + sums[at + 2u] + sums[at + 3u];
  }
  workgroupBarrier();
  let row = group * ROWS + tid;
  if (tid < ROWS && row < params.N) {
    var total = vec2<f32>();
    for (var p = 0u; p < 8u; p++) {
      total += row_parts[tid * 8u + p];
    }
    output_store(row, silu(total.x) * total.y);
  }
}
