// cat_copy: one entry of a cat, one unit per invocation: a 32-bit element, or four of them
// (cat_copy_vec4: the bindings are vec4s, and inner and num_elements count vec4s). Input unit
// [o, j, r] of [outer, in_len, inner] goes to [o, offset + j, r] of [outer, out_len, inner].

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let e = linear_index(gid, num_workgroups);
  if (e >= params.num_elements) {
    return;
  }
  let r = e % params.inner;
  let row = e / params.inner;
  let j = row % params.in_len;
  let o = row / params.in_len;
  output[(o * params.out_len + params.offset + j) * params.inner + r] = input[e];
}
