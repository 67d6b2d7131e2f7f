// index_tensor_bytes (and index_tensor_halves): index_tensor for bool tensors (one byte per
// element, PER_WORD = 4 to a u32 word) or float16 ones (PER_WORD = 2 halves to a word).
// Each invocation owns one output word and gathers its elements, so no two invocations
// write the same word; ALIGNED (self's last dim kept and a multiple of 4): the word's
// elements are one aligned input word.

fn elem_source(e: u32) -> u32 {
  return source_index(e);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (PER_WORD * w >= params.num_elements) {
    return;
  }
  if (ALIGNED) {
    output[w] = input[source_index(PER_WORD * w) / PER_WORD];
    return;
  }
  output[w] = gathered_word(w);
}
