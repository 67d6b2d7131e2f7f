// linear_dq8ca_q4gsw's activations (q4gsw_dq8.wgsl) for the GEMV kernels.

// Input row m, elements 4 * k4 .. 4 * k4 + 3, quantized and dequantized.
fn input4(m: u32, k4: u32) -> vec4<f32> {
  return fake_quant(m, a[m * (params.K / 4u) + k4]);
}
