// q4gsw_gemv_subgroup: q4gsw_gemv (same lanes and loads) with the lanes' sums reduced by
// subgroupAdd: one subgroup reduction, then, where a subgroup is narrower than a row's 32
// lanes, lane 0 adds the row's subgroup sums after one barrier; a subgroup wider than a
// row reduces each row it holds in turn. Subgroup sizes 4..128; 1-D workgroups cut into
// subgroups of consecutive local_invocation_index values (all full: 256 is a multiple of
// every subgroup size). q4gsw_gemv is its fallback.

const MAX_SUBGROUPS: u32 = 64u;  // WORKGROUP_SIZE_X / the smallest subgroup size (4)

var<workgroup> partial: array<vec4<f32>, MAX_SUBGROUPS>;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>,
        @builtin(subgroup_size) subgroup_size: u32,
        @builtin(subgroup_invocation_id) subgroup_lane: u32) {
  let n = linear_index(gid, num_workgroups) / LANES;
  let lane = tid % LANES;
  let dots = lane_dots(n, lane);
  let span = min(subgroup_size, LANES);  // lanes each reduction sums
  let slot = subgroup_lane / LANES;  // the row of a subgroup wider than one
  var row = vec4<f32>();
  for (var r = 0u; r < max(subgroup_size / LANES, 1u); r++) {
    // select, not a product: a NaN or inf of one row never reaches the other
    let sum = subgroupAdd(select(vec4<f32>(), dots, slot == r));
    if (slot == r) {
      row = sum;
    }
  }
  if (tid % span == 0u) {
    partial[tid / span] = row;
  }
  workgroupBarrier();
  if (lane == 0u && n < params.N) {
    var total = vec4<f32>();
    for (var s = tid / span; s < (tid + LANES) / span; s++) {
      total += partial[s];
    }
    for (var m = 0u; m < params.M; m++) {
      store_output(m, n, total[m]);
    }
  }
}
