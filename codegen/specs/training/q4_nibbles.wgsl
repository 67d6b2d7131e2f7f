// 4-bit weights as linear_q4gsw holds them: bytes (four to a u32 word, little-endian),
// byte j holding weight 2j in its low nibble and 2j + 1 in its high one, each + 8.

// The signed 4-bit weight at position k of a row starting at byte `row_byte`.
fn q4_weight(row_byte: u32, k: u32) -> i32 {
  let b = row_byte + k / 2u;
  let byte = (weights[b / 4u] >> (8u * (b % 4u))) & 0xffu;
  return i32(select(byte & 0xfu, byte >> 4u, (k % 2u) == 1u)) - 8;
}
