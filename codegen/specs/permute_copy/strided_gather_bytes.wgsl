// strided_gather_bytes (and strided_gather_halves): strided_gather for bool tensors (one
// byte per element, PER_WORD = 4 to a u32 word, little-endian) or float16 ones (PER_WORD =
// 2 halves to a word). Each invocation owns one output word: it gathers its elements from
// wherever they sit in the input and writes the word once, so no two invocations write the
// same word. ALIGNED (the vec4 condition: the innermost dim read contiguously, every size
// on the way a multiple of 4): the word's elements are one aligned input word.

fn dim_of(v: array<vec4<u32>, 2>, k: u32) -> u32 {
  return v[k / 4u][k % 4u];
}

// The input element that output element e reads.
fn source(e: u32) -> u32 {
  var rest = e;
  var src = params.in_offset;  // u32 arithmetic: negative strides wrap back into range
  for (var k = 7i; k >= 0 && rest != 0u; k--) {
    let size = dim_of(params.out_dims, u32(k));
    src += (rest % size % dim_of(params.in_mods, u32(k))) * dim_of(params.in_strides, u32(k));
    rest = rest / size;
  }
  return src;
}

fn elem_source(e: u32) -> u32 {
  return source(e);
}
