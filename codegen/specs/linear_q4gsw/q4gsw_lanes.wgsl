// The GEMV kernels' shared part: LANES threads per weight row (an output column n), each
// reading its share of the row's packed words as vec4<u32> (32 values) once and dotting
// it with every input row (M <= 4, one vec4 component each). K % 32 == 0, so a row is a
// whole number of vec4s and every word lies in one quantization group.

const LANES: u32 = 32u;  // threads per weight row; 8 rows per 256-thread workgroup

// Lane `lane`'s partial dot products of weight row n with input rows 0..3; zeros past N.
fn lane_dots(n: u32, lane: u32) -> vec4<f32> {
  var acc = vec4<f32>();
  if (n >= params.N) {
    return acc;
  }
  let quads = params.K / 32u;  // vec4<u32> per weight row
  for (var q = lane; q < quads; q += LANES) {
    let words = w[n * quads + q];
    for (var j = 0u; j < 4u; j++) {
      let k = q * 32u + j * 8u;  // the word's first k
      let scale = scales[(k / params.group_size) * params.N + n];
      let v = nibbles(words[j]);
      for (var m = 0u; m < params.M; m++) {
        acc[m] += (dot(input4(m, k / 4u), v[0]) + dot(input4(m, k / 4u + 1u), v[1])) * scale;
      }
    }
  }
  return acc;
}
