// embedding_rows: output Word e is Word e % row_len of weight row indices[e / row_len],
// a Word being one 32-bit word (embedding_rows) or a vec4 of them (embedding_rows_vec4,
// row_len counting vec4s); an index outside 0..num_rows-1 writes quiet NaNs (as bits: no
// float constant). Rows are whole words: one float32, or two float16 (NAN_WORD: a
// float32 NaN, or two float16 ones).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let e = linear_index(gid, num_workgroups);
  if (e >= params.num_elements) {
    return;
  }
  let index = indices[e / params.row_len];
  if (index < 0 || u32(index) >= params.num_rows) {
    output[e] = Word(NAN_WORD);
    return;
  }
  output[e] = weight[u32(index) * params.row_len + e % params.row_len];
}
