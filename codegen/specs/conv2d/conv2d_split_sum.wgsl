// conv2d_split_sum: a split-K GEMM's partial sums (one plane per K slice) added up, then
// the epilogue. One invocation per output element.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  let plane = params.OH * params.OW;
  let numel = params.B * params.OC * plane;
  if (i >= numel) {
    return;
  }
  var acc = 0.0;
  for (var s = 0u; s < params.split; s++) {
    acc += partial[s * numel + i];
  }
  output_store(i, conv_epilogue(acc, i / plane % params.OC));
}
