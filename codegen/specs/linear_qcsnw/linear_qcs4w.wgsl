// linear_qcs4w: out[m, n] = sum_k x[m, k] * (w[n, k] * scales[n]), the weight 4-bit per
// channel: byte j of row n holds w[n, 2j] + 8 in its high nibble and w[n, 2j + 1] + 8 in
// its low one (K padded to even). One invocation per output element.

// byte i of the weight, bound as u32 words (little-endian)
fn byte_at(i: u32) -> u32 {
  return (weight[i / 4u] >> (8u * (i % 4u))) & 0xffu;
}

fn write_element(e: u32) {
  let m = e / params.N;
  let n = e % params.N;
  let row = m * params.K;
  let bytes = n * params.K_packed;
  var acc = 0.0;
  for (var j = 0u; 2u * j < params.K; j++) {
    let b = byte_at(bytes + j);
    acc += input[row + 2u * j] * f32(i32(b >> 4u) - 8);
    if (2u * j + 1u < params.K) {
      acc += input[row + 2u * j + 1u] * f32(i32(b & 0xfu) - 8);
    }
  }
  output[e] = acc * scales[n];
}
