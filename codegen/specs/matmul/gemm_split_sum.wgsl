// gemm_split_sum: adds the K slices' partial sums of each output element, then applies
// the epilogue (gemm_epilogue.wgsl); the partials are laid out as gemm_store.wgsl writes them.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  let numel = params.batch * params.M * params.N;
  if (i >= numel) {
    return;
  }
  var acc = 0.0;
  for (var s = 0u; s < params.split; s++) {
    acc += partial[s * numel + i];
  }
  let mn = i % (params.M * params.N);
  output_store(i, epilogue(acc, mn / params.N, mn % params.N));
}
