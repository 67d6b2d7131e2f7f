// The rows kernels' reduction without subgroups (q4gsw_rows.wgsl's layout): each thread's
// VALUES sums (the kernel's const: one per row it serves, or more) added over the 32
// k-lanes of its row in two workgroup steps. q4gsw_rows_reduce_subgroup.wgsl is the same
// interface with subgroup shuffles.

var<workgroup> lane_sums: array<f32, 256 * VALUES>;  // [value][thread]

// Adds every thread's `sums` over the k-lanes of its row into row_parts
// (q4gsw_rows.wgsl), so that row_total(v, r) is then value v of the block's row r (a
// barrier included, so every thread must call it).
fn reduce_lanes(sums: array<f32, VALUES>, tid: u32) {
  for (var v = 0u; v < VALUES; v++) {
    lane_sums[v * 256u + tid] = sums[v];
  }
  workgroupBarrier();
  for (var i = tid; i < 64u * VALUES; i += 256u) {  // value i / 64, row (i / 8) % 8, warp i % 8
    let at = (i / 64u) * 256u + (i % 8u) * 32u + ((i / 8u) % 8u) * 4u;
    row_parts[i] = lane_sums[at] + lane_sums[at + 1u] + lane_sums[at + 2u] + lane_sums[at + 3u];
  }
  workgroupBarrier();
}
