// embedding_rows: output Word e is Word e % row_len of weight row indices[e / row_len],
// a Word being one 32-bit word (embedding_rows) or a vec4 of them (embedding_rows_vec4,
// row_len counting vec4s); an index outside 0..num_rows-1 writes quiet NaNs (as bits: no
// float constant). Rows are whole words: one float32, or two float16 (NAN_WORD: a
// float32 NaN, or two float16 ones).

fn write_element(e: u32) {
  let index = indices[e / params.row_len];
  if (index < 0 || u32(index) >= params.num_rows) {
    output[e] = Word(NAN_WORD);
    return;
  }
  output[e] = weight[u32(index) * params.row_len + e % params.row_len];
}
