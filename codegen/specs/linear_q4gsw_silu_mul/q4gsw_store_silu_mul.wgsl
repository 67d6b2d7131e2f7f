// The up projection's stores of linear_q4gsw_silu_mul's prefill (the tiled kernel's
// store_output): the output already holds the gate projection (the dispatch before
// wrote it); each element becomes silu(gate) * up.

fn store_output(m: u32, n: u32, sum: f32) {
  let i = m * params.N + n;
  output_store(i, silu(output_load(i)) * sum);
}
