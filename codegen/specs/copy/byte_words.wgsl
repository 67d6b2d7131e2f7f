// Shared by the gathers of bool tensors (one byte per element, four to a u32 word), emitted
// into their modules by opgen: each invocation owns one output word and gathers
// its elements' bytes, so no two invocations write the same word. The kernel supplies
// byte_source(e), the input element that output element e reads.

fn byte_at(i: u32) -> u32 {
  return (input[i / 4u] >> (8u * (i % 4u))) & 0xffu;
}

// Output word w: elements 4w..4w+3 that lie below num_elements, each from byte_source.
fn gathered_word(w: u32) -> u32 {
  let first = 4u * w;
  var word = 0u;
  for (var j = 0u; j < 4u && first + j < params.num_elements; j++) {
    word |= byte_at(byte_source(first + j)) << (8u * j);
  }
  return word;
}
