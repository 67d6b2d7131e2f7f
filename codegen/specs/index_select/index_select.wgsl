// index_select: out[outer, c, inner] = input[outer, index[c], inner], the tensors seen as
// [outer, in_len, inner] and [outer, out_len, inner] around dim, one Word per invocation
// (a 32-bit word; index_select_vec4: a vec4 of them, for an inner block of whole vec4s,
// inner counting vec4s); an index outside 0..in_len-1 writes quiet NaNs (as bits: no float
// constant; NAN_WORD: a float32 NaN, or two float16 ones).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let e = linear_index(gid, num_workgroups);
  if (e >= params.num_elements) {
    return;
  }
  let inner = e % params.inner;
  let rest = e / params.inner;
  let c = rest % params.out_len;
  let outer = rest / params.out_len;
  let k = index[c];
  if (k < 0 || u32(k) >= params.in_len) {
    output[e] = Word(NAN_WORD);
    return;
  }
  output[e] = input[(outer * params.in_len + u32(k)) * params.inner + inner];
}
