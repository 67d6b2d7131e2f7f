// rotary_emb_interleaved: EdgeTAM's pair-interleaved RoPE, one invocation per (real, imag)
// pair of x [B, N, C]: with (cos, sin) = freqs[n, 2k], freqs[n, 2k + 1] (freqs_cis
// flattened to [N, C]),
//   out[2k]     = x[2k] * cos - x[2k + 1] * sin
//   out[2k + 1] = x[2k] * sin + x[2k + 1] * cos
// A pair is a vec2 of each binding's view, computed in f32 (float32, or float16 on the
// kernel's twins: each result rounded to half once).

fn write_element(p: u32) {
  let row_pairs = params.N * params.half;  // pairs per batch
  let x = input_load(p);
  let cs = freqs_load(p % row_pairs);
  output_store(p, vec2<f32>(x.x * cs.x - x.y * cs.y, x.x * cs.y + x.y * cs.x));
}
