// q4gsw_gemv_subgroup: q4gsw_gemv (same threads and loads) with each row's 4 adjacent
// k-lanes summed by two subgroup shuffles, so one barrier remains. Subgroups of 4..128
// consecutive local_invocation_index values (1-D workgroups), so a thread's xor-1 and
// xor-2 neighbours are its k-lane neighbours. q4gsw_gemv is its fallback.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let group = gemv_group(gid, num_workgroups);
  var sum = lane_dots(gemv_row(group, tid), tid);
  sum += subgroupShuffleXor(sum, 1u);
  sum += subgroupShuffleXor(sum, 2u);
  if (tid % 4u == 0u) {  // row (tid / 4) % 8, thread block tid / 32
    row_parts[((tid / 4u) % ROWS) * 8u + tid / 32u] = sum;
  }
  workgroupBarrier();
  store_rows(group, tid);
}
