// Shared by every GEMM kernel (composed into their modules by opgen).

// alpha * (A @ B) + beta * bias, the bias broadcast by its strides (linear: beta = 1).
fn epilogue(acc: f32, m: u32, n: u32) -> f32 {
  var v = params.alpha * acc;
  if (params.has_bias != 0u) {
    v += params.beta * bias_load(m * params.bias_stride_m + n * params.bias_stride_n);
  }
  return v;
}

// The tiled kernels' output element of C[z][m][n] (gemm_tile.wgsl): row-major [batch, M, N].
fn out_index(z: u32, m: u32, n: u32) -> u32 {
  return (z * params.M + m) * params.N + n;
}
