// The rows kernels' reduction with subgroups: q4gsw_rows_reduce.wgsl's interface, each
// row's 4 adjacent k-lanes summed by two shuffles, so one barrier remains. Subgroups of
// 4..128 consecutive local_invocation_index values (1-D workgroups), so a thread's xor-1
// and xor-2 neighbours are its k-lane neighbours.

fn reduce_lanes(sums: array<f32, VALUES>, tid: u32) {
  for (var v = 0u; v < VALUES; v++) {
    let pair = sums[v] + subgroupShuffleXor(sums[v], 1u);
    let four = pair + subgroupShuffleXor(pair, 2u);
    if (tid % 4u == 0u) {
      row_parts[v * 64u + ((tid / 4u) % 8u) * 8u + tid / 32u] = four;
    }
  }
  workgroupBarrier();
}
