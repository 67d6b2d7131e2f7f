// select_copy_bytes: select_copy for tensors whose inner block is not whole words (bools,
// or float16 rows as their bytes), one byte per element, four to a u32 word. Each
// invocation owns one output word and gathers its four bytes, so no two invocations write
// the same word. inner counts bytes; num_elements is the output's byte count.

fn elem_source(e: u32) -> u32 {
  let outer = e / params.inner;
  return (outer * params.size + params.index) * params.inner + e % params.inner;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (PER_WORD * w >= params.num_elements) {
    return;
  }
  output[w] = gathered_word(w);
}
