// q8ta_linear: one invocation per output word: 4 consecutive outputs of the [M, N] result
// (which may span two rows), each its own sum over K.

fn write_word(w: u32) {
  var q = vec4<i32>(0);
  for (var j = 0u; j < 4u; j++) {
    let e = 4u * w + j;
    if (e < params.num_elements) {
      let n = e % params.N;
      q[j] = linear_output(row_dot(e / params.N, n, 0u, 1u), n);
    }
  }
  output[w] = pack_int8(q);
}
