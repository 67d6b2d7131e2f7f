// q8ta_linear: one invocation per output word: 4 consecutive outputs of the [M, N] result
// (which may span two rows), each its own sum over K.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (w >= params.num_words) {
    return;
  }
  var q = vec4<i32>(0);
  for (var j = 0u; j < 4u; j++) {
    let e = 4u * w + j;
    if (e < params.num_elements) {
      let n = e % params.N;
      q[j] = linear_output(row_dot(e / params.N, n, 0u, 1u), n);
    }
  }
  output[w] = pack_int8(q);
}
