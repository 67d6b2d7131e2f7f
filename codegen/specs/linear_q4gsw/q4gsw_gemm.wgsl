// q4gsw_gemm: 4-bit linear for many input rows (an LLM's prefill) on the tiled GEMM
// (../matmul/gemm_tile.wgsl: TILE_M x 128 output tiles, 8 x 8 per thread), its B operand
// the weights as [N][K], dequantized as they are staged: (nibble - 8) * scale. The rows
// are read through input4 (q4gsw_input_vec4: as given, or fake-quantized for
// linear_dq8ca_q4gsw). K % 8 == 0 (the groups are whole words), so every vec4 the tile
// asks for is whole. The stores are the matmul tiles' (../matmul/gemm_store.wgsl, with
// q4gsw_store.wgsl's epilogue: the bias): the outputs, or with split K each slice's
// partial sums.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  gemm_tile(lid, wid);
}

// Input row m, k .. k + 3; zeros outside.
fn load_a(z: u32, m: u32, k: u32, end: u32) -> vec4<f32> {
  if (m >= params.M || k >= end) {
    return vec4<f32>();
  }
  return input4(m, k / 4u);
}

// Weights (n, k .. k + 3), dequantized; zeros outside. k % 4 == 0: half a packed word.
fn load_b(z: u32, n: u32, k: u32, end: u32) -> vec4<f32> {
  if (n >= params.N || k >= end) {
    return vec4<f32>();
  }
  let bits = w[n * params.row_words + k / 8u] >> ((k % 8u) * 4u);
  let q = vec4<u32>(bits, bits >> 4u, bits >> 8u, bits >> 12u) & vec4<u32>(15u);
  return (vec4<f32>(q) - 8.0) * scales_load((k / params.group_size) * params.N + n);
}
