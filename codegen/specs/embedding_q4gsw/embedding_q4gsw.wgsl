// embedding_q4gsw: out[t, c] = (nibble(weight[row, c]) - 8) * scales[row, c / group_size]
// with row = indices[t]. Bytes are read from u32 words (little endian); element 2j of a
// row is byte j's high nibble (low nibble with linear_order), 2j+1 the other one.
// Scales are u32 words: a float32 scale is one, a float16 one half of one (scales_half).

fn write_element(i: u32) {
  let c = i % params.D;
  let t = i / params.D;
  var idx = indices[t];
  idx = select(idx, idx + i32(params.V), idx < 0);  // negative indices count from the end
  let row = u32(clamp(idx, 0, i32(params.V) - 1));
  let byte_index = row * (params.D / 2u) + c / 2u;
  let byte = (weight[byte_index / 4u] >> ((byte_index % 4u) * 8u)) & 0xFFu;
  // high nibble for even elements unless linear_order swaps the two
  let high = ((c % 2u) == 0u) != (params.linear_order != 0u);
  let nibble = select(byte & 0xFu, byte >> 4u, high);
  let s = row * params.num_groups + c / params.group_size;
  let halves = params.scales_half != 0u;
  let word = scales[select(s, s / 2u, halves)];
  let scale = select(bitcast<f32>(word), unpack2x16float(word)[s % 2u], halves);
  output_store(i, f32(i32(nibble) - 8) * scale);
}
