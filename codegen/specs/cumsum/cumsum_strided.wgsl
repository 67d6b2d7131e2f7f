// cumsum_strided: cumsum over a strided dim: one invocation adds up a line of N elements
// `inner` apart in order, so neighbouring invocations read neighbouring elements.

fn write_line(line: u32) {
  let inner = params.inner;
  let base = (line / inner) * params.N * inner + line % inner;
  var acc = 0u;
  for (var k = 0u; k < params.N; k++) {
    let i = base + k * inner;
    acc = add(acc, load(i));
    store(i, acc);
  }
}
