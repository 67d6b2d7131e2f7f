// The packed 4-bit weights of linear_q4gsw (ExecuTorch's weight_packing_utils): two
// signed values per byte with +8 offset, the even k in the low nibble, so a little-endian
// u32 word holds k .. k + 7 in nibbles 0..7.

// Four nibbles (0..15 each) minus 8, as floats. Each nibble becomes the low mantissa bits
// of 2^23 (0x4B000000 is 8388608.0), so the float is exactly 8388608 + nibble and one
// subtraction leaves nibble - 8: two full-rate operations where an integer-to-float
// conversion runs at a quarter of the rate on NVIDIA GPUs (the GEMV's bound).
fn signed_nibbles(q: vec4<u32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(q | vec4<u32>(0x4B000000u)) - 8388616.0;
}

// The eight values of a word, each minus 8: k .. k + 3, then k + 4 .. k + 7.
fn nibbles(word: u32) -> array<vec4<f32>, 2> {
  let lo = (vec4<u32>(word) >> vec4<u32>(0u, 4u, 8u, 12u)) & vec4<u32>(15u);
  let hi = (vec4<u32>(word) >> vec4<u32>(16u, 20u, 24u, 28u)) & vec4<u32>(15u);
  return array<vec4<f32>, 2>(signed_nibbles(lo), signed_nibbles(hi));
}

// The output element (m, n): the summed products plus the bias, when there is one.
fn store_output(m: u32, n: u32, sum: f32) {
  var value = sum;
  if (params.has_bias != 0u) {
    value += bias_load(n);
  }
  output_store(m * params.N + n, value);
}
