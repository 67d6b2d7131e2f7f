// Shared by the GEMV kernels of linear (composed into their modules by opgen): one
// weight row per LANES threads, each lane dotting its share of the row with every input
// row, and the store of a row's reduced sums. The kernels differ in how they reduce.

const LANES: u32 = 64u;  // threads per weight row

// Lane `lane`'s partial dot products of weight row n with input rows 0..3 (x..w of the
// first vec4) and 4..7 (the second); zeros past N.
fn lane_dots(n: u32, lane: u32) -> array<vec4<f32>, 2> {
  let k4 = params.K / 4u;
  var lo = vec4<f32>();
  var hi = vec4<f32>();
  if (n < params.N) {
    let w0 = n * k4;
    for (var k = lane; k < k4; k += LANES) {
      let w = b_load(w0 + k);
      for (var m = 0u; m < min(params.M, 4u); m++) {
        lo[m] += dot(a_load(m * k4 + k), w);
      }
      for (var m = 4u; m < params.M; m++) {
        hi[m - 4u] += dot(a_load(m * k4 + k), w);
      }
    }
  }
  return array<vec4<f32>, 2>(lo, hi);
}

// Output column n of every input row, from the row's summed dot products.
fn store_column(n: u32, total: array<vec4<f32>, 2>) {
  for (var m = 0u; m < params.M; m++) {
    output_store(m * params.N + n, epilogue(total[m / 4u][m % 4u], m, n));
  }
}
