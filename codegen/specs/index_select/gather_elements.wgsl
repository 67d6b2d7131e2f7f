// gather_elements: aten.gather, out[c] = input[c with c[dim] replaced by index[c]]: one
// 32-bit word per invocation at output (= index) coordinates c, dims right-aligned into 8
// slots. self_strides holds self's strides with 0 at dim, so the coordinates other than
// dim address the input directly; the index picks the position along dim. An index
// outside 0..dim_size-1 (torch raises on it; a kernel cannot) writes a quiet NaN's bits.

const QUIET_NAN_BITS: u32 = 0x7fc00000u;

fn dim_of(v: array<vec4<u32>, 2>, k: u32) -> u32 {
  return v[k / 4u][k % 4u];
}

fn write_element(e: u32) {
  var rest = e;
  var src = 0u;
  // the leading coordinates are 0 once rest is: they add nothing
  for (var k = 7i; k >= 0 && rest != 0u; k--) {
    let size = dim_of(params.out_dims, u32(k));
    src += (rest % size) * dim_of(params.self_strides, u32(k));
    rest = rest / size;
  }
  let j = index[e];
  if (j < 0 || u32(j) >= params.dim_size) {
    output[e] = QUIET_NAN_BITS;
    return;
  }
  output[e] = input[src + u32(j) * params.dim_stride];
}
