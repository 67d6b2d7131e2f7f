// The packed 4-bit weights of linear_q4gsw (ExecuTorch's weight_packing_utils): two
// signed values per byte with +8 offset, the even k in the low nibble, so a little-endian
// u32 word holds k .. k + 7 in nibbles 0..7.

// The eight values of a word, each minus 8: k .. k + 3, then k + 4 .. k + 7.
fn nibbles(word: u32) -> array<vec4<f32>, 2> {
  let b = vec4<u32>(word, word >> 8u, word >> 16u, word >> 24u);
  let lo = vec4<u32>(b.x, b.x >> 4u, b.y, b.y >> 4u) & vec4<u32>(15u);
  let hi = vec4<u32>(b.z, b.z >> 4u, b.w, b.w >> 4u) & vec4<u32>(15u);
  return array<vec4<f32>, 2>(vec4<f32>(lo) - 8.0, vec4<f32>(hi) - 8.0);
}
