// q4gsw_gemv: 4-bit linear for a few input rows (M <= 4, an LLM's decode step):
// bandwidth-bound, so each packed weight row is read once, by 32 lanes with vec4<u32>
// loads, and the lanes' sums meet in a workgroup reduction.

var<workgroup> sums: array<vec4<f32>, 256>;  // [thread]: input rows 0..3

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let n = linear_index(gid, num_workgroups) / LANES;
  let lane = tid % LANES;
  sums[tid] = lane_dots(n, lane);
  workgroupBarrier();
  for (var stride = LANES / 2u; stride > 0u; stride /= 2u) {
    if (lane < stride) {
      sums[tid] += sums[tid + stride];
    }
    workgroupBarrier();
  }
  if (lane == 0u && n < params.N) {
    for (var m = 0u; m < params.M; m++) {
      store_output(m, n, sums[tid][m]);
    }
  }
}
