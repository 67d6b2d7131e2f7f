// linear_dq8ca_q4gsw's activations: quantized to int8 with their row's scale and zero
// point (torchao's quantize_affine: round(x * (1 / scale)) + zero_point, clamped to
// [-128, 127]) and dequantized again, as the eager 8da4w model computes them.

// The int8 zero point of input row m (one byte of the int8 tensor, sign-extended).
fn zero_point(m: u32) -> f32 {
  let word = input_zp[m / 4u];
  return f32(bitcast<i32>(word << (24u - 8u * (m % 4u))) >> 24u);
}

fn fake_quant(m: u32, x: vec4<f32>) -> vec4<f32> {
  let scale = input_scales[m];
  let zp = zero_point(m);
  let q = clamp(round(x * (1.0 / scale)) + zp, vec4<f32>(-128.0), vec4<f32>(127.0));
  return (q - zp) * scale;
}
