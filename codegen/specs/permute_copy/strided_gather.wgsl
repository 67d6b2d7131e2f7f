// strided_gather: out[c] = input[in_offset + sum_k (c_k % in_mods[k]) * in_strides[k]] over
// the output coordinates c (dims right-aligned into 8 slots). permute_copy, expand_copy,
// repeat, as_strided_copy, copy, flip and pixel_shuffle are this one gather: permuted
// strides, stride 0 on a broadcast dim (expand_copy, copy's src), a coordinate that wraps
// around the input dim (repeat), the strides given (as_strided_copy), a negative stride
// from the far end (flip: its two's complement, with in_offset), a permuted view of the
// channels (pixel_shuffle). LANES elements per invocation: one, or
// (strided_gather_vec4) four, where the innermost output dim reads its input dim
// contiguously (stride 1) and every stride and size on the way is a multiple of 4, so four
// neighbours come from one aligned input vec4.

fn dim_of(v: array<vec4<u32>, 2>, k: u32) -> u32 {
  return v[k / 4u][k % 4u];
}

fn write_element(i: u32) {
  var rest = i * LANES;  // the first element
  var src = params.in_offset;  // u32 arithmetic: negative strides wrap back into range
  // the leading coordinates are 0 once rest is: they add nothing
  for (var k = 7i; k >= 0 && rest != 0u; k--) {
    let size = dim_of(params.out_dims, u32(k));
    src += (rest % size % dim_of(params.in_mods, u32(k))) * dim_of(params.in_strides, u32(k));
    rest = rest / size;
  }
  output[i] = input[src / LANES];
}
