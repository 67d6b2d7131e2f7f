// cat_copy_bytes: one entry of a bool cat whose rows are not whole words (one byte per
// element, four to a u32 word). Each invocation owns one word of the output and rewrites
// the bytes of it that belong to this entry, keeping the others: the entries' dispatches
// run one after another, so a word shared by two entries is never written by two
// invocations at once. inner counts elements; num_elements is the output's element count.
// Output element [o, c, r] of [outer, out_len, inner] is this entry's when
// offset <= c < offset + in_len, and reads its [o, c - offset, r].

fn byte_at(i: u32) -> u32 {
  return (input[i / 4u] >> (8u * (i % 4u))) & 0xffu;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  let first = 4u * w;
  if (first >= params.num_elements) {
    return;
  }
  var word = output[w];
  var mine = false;
  for (var j = 0u; j < 4u && first + j < params.num_elements; j++) {
    let e = first + j;
    let r = e % params.inner;
    let row = e / params.inner;
    let c = row % params.out_len;
    let o = row / params.out_len;
    if (c >= params.offset && c < params.offset + params.in_len) {
      let b = byte_at((o * params.in_len + c - params.offset) * params.inner + r);
      word = (word & ~(0xffu << (8u * j))) | (b << (8u * j));
      mine = true;
    }
  }
  if (mine) {
    output[w] = word;
  }
}
