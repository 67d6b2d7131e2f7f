// The up projection's stores of linear_q4gsw_silu_mul's prefill (the tile's epilogue,
// ../matmul/gemm_store.wgsl): the output already holds the gate projection (the
// dispatches before wrote it); each element becomes silu(gate) * up.

fn out_index(z: u32, m: u32, n: u32) -> u32 {
  return m * params.N + n;
}

fn epilogue(up: f32, m: u32, n: u32) -> f32 {
  return silu(output_load(out_index(0u, m, n))) * up;
}
