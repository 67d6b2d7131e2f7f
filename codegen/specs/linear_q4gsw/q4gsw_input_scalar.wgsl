// linear_q4gsw's activations as given, for the tile kernel (`a` bound as scalars).

// Input element (m, k); 0 outside the input.
fn input1(m: u32, k: u32) -> f32 {
  if (m >= params.M || k >= params.K) {
    return 0.0;
  }
  return a[m * params.K + k];
}
