// slice_copy_bytes: slice_copy for tensors whose inner block is not whole words (bools, or
// float16 rows as their bytes), one byte per element, four to a u32 word. Each invocation
// owns one output word and gathers its four bytes, so no two invocations write the same
// word. inner counts bytes; num_elements is the output's byte count.

fn elem_source(e: u32) -> u32 {
  let inner = e % params.inner;
  let rest = e / params.inner;
  let c = rest % params.out_len;
  let outer = rest / params.out_len;
  return (outer * params.in_len + params.start + c * params.step) * params.inner + inner;
}
