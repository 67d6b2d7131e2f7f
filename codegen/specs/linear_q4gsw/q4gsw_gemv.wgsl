// q4gsw_gemv: 4-bit linear for a few input rows (M <= 4, an LLM's decode step):
// bandwidth-bound, so each packed weight row is read once, by 32 threads (q4gsw_lanes),
// and their sums meet in two workgroup steps.

var<workgroup> sums: array<vec4<f32>, 256u * SETS>;  // [row set][thread]: input rows 0..3

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let group = gemv_group(gid, num_workgroups);
  let slots = lane_dots(group, tid);
  for (var s = 0u; s < SETS; s++) {
    sums[s * 256u + tid] = slots[2u * s] + slots[2u * s + 1u];
  }
  workgroupBarrier();
  if (tid < 64u) {  // row tid / 8 of each set, the 4 adjacent k-lanes of thread block tid % 8
    let first = (tid % 8u) * 32u + (tid / 8u) * 4u;
    for (var s = 0u; s < SETS; s++) {
      let at = s * 256u + first;
      row_parts[(tid / 8u + ROWS * s) * 8u + tid % 8u] =
          sums[at] + sums[at + 1u] + sums[at + 2u] + sums[at + 3u];
    }
  }
  workgroupBarrier();
  store_rows(group, tid);
}
