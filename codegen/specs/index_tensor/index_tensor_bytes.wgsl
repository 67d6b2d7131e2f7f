// index_tensor_bytes (and index_tensor_halves): index_tensor for bool tensors (one byte per
// element, PER_WORD = 4 to a u32 word) or float16 ones (PER_WORD = 2 halves to a word).
// Each invocation owns one output word and gathers its elements, so no two invocations
// write the same word; ALIGNED (self's last dim kept and a multiple of 4): the word's
// elements are one aligned input word.

fn elem_source(e: u32) -> u32 {
  return source_index(e);
}
