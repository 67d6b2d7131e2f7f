// gemv_rows_subgroup: gemv_rows (same lanes, loads and epilogue) with the lanes' sums
// reduced by subgroupAdd instead of a six-step tree through workgroup memory: one
// subgroup reduction, then, where a subgroup is narrower than a row's 64 lanes, lane 0
// adds the row's subgroup sums after one barrier. Runs on devices with `subgroups`
// (sizes 4..128); gemv_rows is its fallback.
// Like every subgroup reduction we know of, it relies on a 1-D workgroup being cut into
// subgroups of consecutive local_invocation_index values (all full here: 256 is a
// multiple of every subgroup size).

const MAX_SUBGROUPS: u32 = 64u;  // WORKGROUP_SIZE_X / the smallest subgroup size (4)

var<workgroup> partial_lo: array<vec4<f32>, MAX_SUBGROUPS>;  // input rows 0..3, per subgroup
var<workgroup> partial_hi: array<vec4<f32>, MAX_SUBGROUPS>;  // input rows 4..7

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>,
        @builtin(subgroup_size) subgroup_size: u32,
        @builtin(subgroup_invocation_id) subgroup_lane: u32) {
  let n = linear_index(gid, num_workgroups) / LANES;
  let lane = tid % LANES;
  let dots = lane_dots(n, lane);
  let lo = dots[0];  // input rows 0..3
  let hi = dots[1];  // input rows 4..7
  // A subgroup wider than a row (128 lanes) holds two rows: each row's lanes are reduced
  // in turn, the other row's lanes adding zeros. select, not a product, so a NaN or inf
  // of one row never reaches the other.
  let span = min(subgroup_size, LANES);  // lanes each reduction sums
  let slot = subgroup_lane / LANES;
  var row_lo = vec4<f32>();
  var row_hi = vec4<f32>();
  for (var r = 0u; r < max(subgroup_size / LANES, 1u); r++) {
    let sum_lo = subgroupAdd(select(vec4<f32>(), lo, slot == r));
    if (slot == r) {
      row_lo = sum_lo;
    }
    if (params.M > 4u) {
      let sum_hi = subgroupAdd(select(vec4<f32>(), hi, slot == r));
      if (slot == r) {
        row_hi = sum_hi;
      }
    }
  }
  if (tid % span == 0u) {
    partial_lo[tid / span] = row_lo;
    partial_hi[tid / span] = row_hi;
  }
  workgroupBarrier();
  if (lane == 0u && n < params.N) {
    var total_lo = vec4<f32>();
    var total_hi = vec4<f32>();
    for (var s = tid / span; s < (tid + LANES) / span; s++) {
      total_lo += partial_lo[s];
      total_hi += partial_hi[s];
    }
    store_column(n, array<vec4<f32>, 2>(total_lo, total_hi));
  }
}
