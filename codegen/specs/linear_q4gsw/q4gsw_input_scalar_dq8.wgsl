// linear_dq8ca_q4gsw's activations (q4gsw_dq8.wgsl) for the tile kernel.

// Input element (m, k), quantized and dequantized; 0 outside the input.
fn input1(m: u32, k: u32) -> f32 {
  if (m >= params.M || k >= params.K) {
    return 0.0;
  }
  return fake_quant(m, vec4<f32>(a[m * params.K + k])).x;
}
