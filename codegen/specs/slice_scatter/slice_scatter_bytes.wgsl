// slice_scatter_bytes: slice_scatter for tensors whose inner block is not whole words
// (bools, or float16 rows as their bytes), one byte per element, four to a u32 word. Each
// invocation owns one output word and gathers its bytes from self or src, so no two
// invocations write the same word. inner counts bytes; num_elements is the output's byte
// count.

fn byte_of(word: u32, i: u32) -> u32 {
  return (word >> (8u * (i % 4u))) & 0xffu;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  let first = 4u * w;
  if (first >= params.num_elements) {
    return;
  }
  let own = input[w];
  var word = 0u;
  for (var j = 0u; j < 4u && first + j < params.num_elements; j++) {
    let k = src_offset(first + j);
    var b = byte_of(own, j);
    if (k != NOT_IN_SLICE) {
      b = byte_of(src[k / 4u], k);
    }
    word |= b << (8u * j);
  }
  output[w] = word;
}
