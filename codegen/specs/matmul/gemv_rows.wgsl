// gemv_rows: linear for a few input rows (M <= 8, K % 4 == 0): bandwidth-bound, so each
// weight row is read once, by 64 lanes with vec4 loads, and dotted with every input row;
// the lanes' sums meet in a workgroup reduction. Four weight rows per 256-thread workgroup.

var<workgroup> sums: array<vec4<f32>, 512>;  // [input row / 4][thread]

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let n = linear_index(gid, num_workgroups) / LANES;
  let lane = tid % LANES;
  let dots = lane_dots(n, lane);
  sums[tid] = dots[0];
  sums[256u + tid] = dots[1];
  workgroupBarrier();
  for (var stride = LANES / 2u; stride > 0u; stride /= 2u) {
    if (lane < stride) {
      sums[tid] += sums[tid + stride];
      sums[256u + tid] += sums[256u + tid + stride];
    }
    workgroupBarrier();
  }
  if (lane == 0u && n < params.N) {
    store_column(n, array<vec4<f32>, 2>(sums[tid], sums[256u + tid]));
  }
}
