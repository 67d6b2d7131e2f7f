// gather_elements: aten.gather, out[c] = input[c with c[dim] replaced by index[c]]. Each
// invocation owns one 32-bit output word: one element (float32, int32: PER_WORD = 1) or
// two (gather_elements_halves: float16, PER_WORD = 2, the halves moved as bits), each
// at output (= index) coordinates c, dims right-aligned into 8 slots. self_strides holds
// self's strides with 0 at dim, so the coordinates other than dim address the input
// directly; the index picks the position along dim. An index outside 0..dim_size-1
// (torch raises on it; a kernel cannot) writes NAN_BITS, a quiet NaN of the dtype.

const ELEM_BITS: u32 = 32u / PER_WORD;
const ELEM_MASK: u32 = 0xffffffffu >> (32u - ELEM_BITS);

fn dim_of(v: array<vec4<u32>, 2>, k: u32) -> u32 {
  return v[k / 4u][k % 4u];
}

// the bits of output element e
fn gathered(e: u32) -> u32 {
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
    return NAN_BITS;
  }
  let i = src + u32(j) * params.dim_stride;
  return (input[i / PER_WORD] >> (ELEM_BITS * (i % PER_WORD))) & ELEM_MASK;
}

// output word w (the entry point is ../common/each_word.wgsl's): its elements below
// num_elements
fn write_word(w: u32) {
  let first = PER_WORD * w;
  var word = 0u;
  for (var k = 0u; k < PER_WORD && first + k < params.num_elements; k++) {
    word |= gathered(first + k) << (ELEM_BITS * k);
  }
  output[w] = word;
}
