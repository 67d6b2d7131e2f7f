// select_copy_bytes: select_copy for tensors whose inner block is not whole words (bools,
// or float16 rows as their bytes), one byte per element, four to a u32 word. Each
// invocation owns one output word and gathers its four bytes, so no two invocations write
// the same word. inner counts bytes; num_elements is the output's byte count.

fn elem_source(e: u32) -> u32 {
  let outer = e / params.inner;
  return (outer * params.size + params.index) * params.inner + e % params.inner;
}
