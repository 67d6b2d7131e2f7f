// q4gsw_gemv: 4-bit linear for a few input rows (2 <= M <= 4; one row runs the rows
// kernels, q4gsw_rows.wgsl):
// bandwidth-bound, so each packed weight row is read once, by 32 threads (q4gsw_lanes),
// and their sums meet in two workgroup steps.

var<workgroup> sums: array<vec4<f32>, 256>;  // [thread]: input rows 0..3

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let group = gemv_group(gid, num_workgroups);
  sums[tid] = lane_dots(gemv_row(group, tid), tid);
  workgroupBarrier();
  if (tid < 64u) {  // row tid / 8, the 4 adjacent k-lanes of thread block tid % 8
    let first = (tid % 8u) * 32u + (tid / 8u) * 4u;
    row_parts[tid] = sums[first] + sums[first + 1u] + sums[first + 2u] + sums[first + 3u];
  }
  workgroupBarrier();
  store_rows(group, tid);
}
