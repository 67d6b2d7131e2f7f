// Shared by every GEMM kernel (emitted into their declaration blocks by opgen).

// alpha * (A @ B) + beta * bias, the bias broadcast by its strides (linear: beta = 1).
fn epilogue(acc: f32, m: u32, n: u32) -> f32 {
  var v = params.alpha * acc;
  if (params.has_bias != 0u) {
    v += params.beta * bias[m * params.bias_stride_m + n * params.bias_stride_n];
  }
  return v;
}
