// linear_q4gsw's output stores: the GEMV kernels call store_output; the tiles store
// through ../matmul/gemm_store.wgsl (with split K, their slices summed by
// ../matmul/gemm_split_sum.wgsl), which read epilogue and out_index.

// The summed products of output element (m, n), plus the bias when there is one.
fn epilogue(sum: f32, m: u32, n: u32) -> f32 {
  if (params.has_bias != 0u) {
    return sum + bias_load(n);
  }
  return sum;
}

// Output element (m, n) of [M, N] (z, gemm_tile's batch, is 0 here).
fn out_index(z: u32, m: u32, n: u32) -> u32 {
  return m * params.N + n;
}

fn store_output(m: u32, n: u32, sum: f32) {
  output_store(out_index(0u, m, n), epilogue(sum, m, n));
}
