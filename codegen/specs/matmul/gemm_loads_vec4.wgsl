// Shared by the kernels that read A and B as vec4s (gemm_vec4 and its TILE_M variants,
// gemv_nn; composed into their modules by opgen): load_a and load_b for gemm_tile.wgsl,
// for rows whose length is a multiple of 4, so every vec4 a caller asks for is whole.

fn load_a(z: u32, m: u32, k: u32, end: u32) -> vec4<f32> {
  if (m >= params.M || k >= end) {
    return vec4<f32>();
  }
  return a_load((z * params.a_batch_stride + m * params.K + k) / 4u);
}

fn load_b(z: u32, r: u32, c: u32, end: u32) -> vec4<f32> {
  let base = z * params.b_batch_stride;
  if (B_IS_NK) {
    if (r >= params.N || c >= end) {
      return vec4<f32>();
    }
    return b_load((base + r * params.K + c) / 4u);
  }
  if (r >= end || c >= params.N) {
    return vec4<f32>();
  }
  return b_load((base + r * params.N + c) / 4u);
}
