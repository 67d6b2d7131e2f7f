// Row n of matrix `mat` (N rows) of a 4-bit linear: its packed quad q (32 weights)
// dotted with input row 0 (M = 1, a decode step). Every load of the quad (its words, the
// 8 input vec4s, its scale) is issued before the arithmetic. The kernel defines
// words_of(mat, i) and scale_of(mat, i), matrix mat's vec4<u32> i and scale i (a kernel of
// one matrix ignores mat; one of several branches on it, uniformly per workgroup). Only
// without runtime checks: naga's clamped indexing keeps `x` out of registers, and an
// LLM's decode GEMVs then took twice as long (docs/performance.md).
fn quad_dot(mat: u32, N: u32, n: u32, q: u32) -> f32 {
  let words = words_of(mat, n * (params.K / 32u) + q);
  var x: array<vec4<f32>, 8>;
  for (var i = 0u; i < 8u; i++) {
    x[i] = input4(0u, q * 8u + i);
  }
  var sum = 0.0;
  if (params.group_size % 32u == 0u) {  // the quad lies in one group: one scale
    let scale = scale_of(mat, (q * 32u / params.group_size) * N + n);
    for (var j = 0u; j < 4u; j++) {
      let v = nibbles(words[j]);
      sum += dot(x[2u * j], v[0]) + dot(x[2u * j + 1u], v[1]);
    }
    return sum * scale;
  }
  for (var j = 0u; j < 4u; j++) {
    let v = nibbles(words[j]);
    let scale = scale_of(mat, ((q * 8u + 2u * j) * 4u / params.group_size) * N + n);
    sum += (dot(x[2u * j], v[0]) + dot(x[2u * j + 1u], v[1])) * scale;
  }
  return sum;
}
