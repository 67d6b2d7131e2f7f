// cumsum_last_dim: one workgroup scans a contiguous row, one chunk of ITEMS x
// WORKGROUP_SIZE_X elements at a time: each invocation adds up ITEMS neighbours, the
// workgroup scans those totals (Hillis-Steele), and a carry joins the chunks.

const ITEMS: u32 = 4u;

var<workgroup> totals: array<u32, WORKGROUP_SIZE_X>;

fn write_row(row: u32, lid: u32) {
  let base = row * params.N;
  var carry = 0u;
  for (var start = 0u; start < params.N; start += ITEMS * WORKGROUP_SIZE_X) {
    let first = start + lid * ITEMS;
    var running: array<u32, ITEMS>;
    var run = 0u;
    for (var j = 0u; j < ITEMS; j++) {
      if (first + j < params.N) {
        run = add(run, load(base + first + j));
      }
      running[j] = run;
    }
    totals[lid] = run;
    // inclusive scan of the invocations' totals
    for (var offset = 1u; offset < WORKGROUP_SIZE_X; offset *= 2u) {
      workgroupBarrier();
      var t = totals[lid];
      if (lid >= offset) {
        t = add(totals[lid - offset], t);
      }
      workgroupBarrier();
      totals[lid] = t;
    }
    workgroupBarrier();
    let before = select(0u, totals[max(lid, 1u) - 1u], lid > 0u);
    let prefix = add(carry, before);
    for (var j = 0u; j < ITEMS; j++) {
      if (first + j < params.N) {
        store(base + first + j, add(prefix, running[j]));
      }
    }
    carry = add(carry, totals[WORKGROUP_SIZE_X - 1u]);
    // every invocation has read `totals` before the next chunk writes it
    workgroupBarrier();
  }
}
