// softmax_strided: softmax over a strided dim: one invocation per line of N elements
// `inner` apart, so neighbouring invocations read neighbouring elements.

fn write_line(line: u32) {
  if (params.N == 0u) {
    return;  // an empty line
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
