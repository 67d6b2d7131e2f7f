// kv_combine: each output element (b, s, query head, d) from the chunks' partial results:
// sum_c exp(m_c - M) * acc_c / sum_c exp(m_c - M) * l_c, M the largest chunk max.

fn write_element(i: u32) {
  let d = i % params.D;
  let head = i / params.D;  // (b, s, query head)
  let first = head * params.chunks;
  var m = -3.4e38;
  for (var c = 0u; c < params.chunks; c++) {
    m = max(m, stats[2u * (first + c)]);
  }
  var num = 0.0;
  var den = 0.0;
  for (var c = 0u; c < params.chunks; c++) {
    let w = exp(stats[2u * (first + c)] - m);
    num += w * partial[(first + c) * params.D + d];
    den += w * stats[2u * (first + c) + 1u];
  }
  output_store(i, num / den);
}
