// q4gsw_split_sum: the tiled route's output when it splits K: each element's partial sums
// of the K slices (q4gsw_gemm's store_quad, [slice][m][n]) added, then stored with the
// bias (q4gsw_store.wgsl).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  let numel = params.M * params.N;
  if (i >= numel) {
    return;
  }
  var sum = 0.0;
  for (var s = 0u; s < params.split; s++) {
    sum += partial[s * numel + i];
  }
  store_output(i / params.N, i % params.N, sum);
}
