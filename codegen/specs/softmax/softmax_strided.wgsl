// softmax_strided: softmax over a strided dim: one invocation per line of N elements
// `inner` apart, so neighbouring invocations read neighbouring elements.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let line = linear_index(gid, num_workgroups);
  if (line >= params.num_rows || params.N == 0u) {
    return;
  }
  let inner = params.inner;
  let base = (line / inner) * params.N * inner + line % inner;
  // from the line's first element, as softmax_last_dim
  var line_max = input_load(base);
  for (var k = 1u; k < params.N; k++) {
    line_max = max(line_max, input_load(base + k * inner));
  }
  var line_sum = 0.0;
  for (var k = 0u; k < params.N; k++) {
    line_sum += exp_or_zero(shifted(input_load(base + k * inner), line_max));
  }
  for (var k = 0u; k < params.N; k++) {
    let i = base + k * inner;
    output_store(i, softmax_value(shifted(input_load(i), line_max), line_sum));
  }
}
