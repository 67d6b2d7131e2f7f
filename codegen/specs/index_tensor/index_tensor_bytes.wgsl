// index_tensor_bytes: index_tensor for bool tensors (one byte per element, four to a u32
// word). Each invocation owns one output word and gathers its four elements' bytes, so no
// two invocations write the same word; ALIGNED (self's last dim kept and a multiple of 4):
// the four bytes are one aligned input word.

fn byte_source(e: u32) -> u32 {
  return source_index(e);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (4u * w >= params.num_elements) {
    return;
  }
  if (ALIGNED) {
    output[w] = input[source_index(4u * w) / 4u];
    return;
  }
  output[w] = gathered_word(w);
}
