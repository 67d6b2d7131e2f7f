// index_select: out[outer, c, inner] = input[outer, index[c], inner], the tensors seen as
// [outer, in_len, inner] and [outer, out_len, inner] around dim, one Word per invocation
// (a 32-bit word; index_select_vec4: a vec4 of them, for an inner block of whole vec4s,
// inner counting vec4s); an index outside 0..in_len-1 writes quiet NaNs (as bits: no float
// constant; NAN_WORD: a float32 NaN, or two float16 ones).

fn write_element(e: u32) {
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
