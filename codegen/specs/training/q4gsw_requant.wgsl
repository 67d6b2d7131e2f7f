// q4gsw_requant: latent [N, K] -> 4-bit codes packed two to a byte (even k in the low
// nibble), q = clamp(round(latent / scale), -8, 7) + 8 with the frozen scale of the
// weight's group (q = 0 where the scale is 0 or the latent NaN). One output word (4 bytes
// of the [N, ceil(K / 2)] result) per invocation; bytes past the end are 0.

fn write_word(w: u32) {
  var word = 0u;
  for (var j = 0u; j < 4u; j++) {
    let e = 4u * w + j;
    if (e < params.num_bytes) {
      let n = e / params.KB;
      let k = 2u * (e % params.KB);
      var byte = code(n, k);
      if (k + 1u < params.K) {
        byte |= code(n, k + 1u) << 4u;
      }
      word |= byte << (8u * j);
    }
  }
  output[w] = word;
}

fn code(n: u32, k: u32) -> u32 {
  let scale = scales[(k / params.group_size) * params.N + n];
  let x = latent[n * params.K + k] / scale;
  var q = 0.0;
  // NaN (a NaN latent, or 0 / 0) and a zero scale give 0, decided on the bits
  if (bitcast<u32>(scale) << 1u != 0u && (bitcast<u32>(x) & 0x7fffffffu) <= 0x7f800000u) {
    q = clamp(round(x), -8.0, 7.0);
  }
  return u32(i32(q) + 8);
}
