// cat_copy: one entry of a cat, one unit per invocation: a 32-bit element, or four of them
// (cat_copy_vec4: the bindings are vec4s, and inner and num_elements count vec4s). Input unit
// [o, j, r] of [outer, in_len, inner] goes to [o, offset + j, r] of [outer, out_len, inner].

fn write_element(e: u32) {
  let r = e % params.inner;
  let row = e / params.inner;
  let j = row % params.in_len;
  let o = row / params.in_len;
  output[(o * params.out_len + params.offset + j) * params.inner + r] = input[e];
}
