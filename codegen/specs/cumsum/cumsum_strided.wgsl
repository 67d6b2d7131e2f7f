// cumsum_strided: cumsum over a strided dim: one invocation adds up a line of N elements
// `inner` apart in order, so neighbouring invocations read neighbouring elements.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let line = linear_index(gid, num_workgroups);
  if (line >= params.num_rows) {
    return;
  }
  let inner = params.inner;
  let base = (line / inner) * params.N * inner + line % inner;
  var acc = 0u;
  for (var k = 0u; k < params.N; k++) {
    let i = base + k * inner;
    acc = add(acc, load(i));
    output[i] = acc;
  }
}
