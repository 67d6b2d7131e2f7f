// select_copy_bytes: select_copy for bool tensors whose inner block is not whole words (one
// byte per element, four to a u32 word). Each invocation owns one output word and gathers
// its four elements' bytes, so no two invocations write the same word. inner counts
// elements; num_elements is the output's element count.

fn byte_source(e: u32) -> u32 {
  let outer = e / params.inner;
  return (outer * params.size + params.index) * params.inner + e % params.inner;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (4u * w >= params.num_elements) {
    return;
  }
  output[w] = gathered_word(w);
}
