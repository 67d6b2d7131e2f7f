// slice_copy: out[outer, c, inner] = input[outer, start + c * step, inner], the tensor
// seen as [outer, in_len, inner] around the sliced dim. 32-bit elements copied as bits.

fn write_element(i: u32) {
  let inner = i % params.inner;
  let rest = i / params.inner;
  let c = rest % params.out_len;
  let outer = rest / params.out_len;
  output[i] = input[(outer * params.in_len + params.start + c * params.step) * params.inner + inner];
}
