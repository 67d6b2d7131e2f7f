// linear_q4gsw's output stores (the GEMV and tiled kernels').

// The output element (m, n): the summed products plus the bias, when there is one.
fn store_output(m: u32, n: u32, sum: f32) {
  var value = sum;
  if (params.has_bias != 0u) {
    value += bias_load(n);
  }
  output_store(m * params.N + n, value);
}
