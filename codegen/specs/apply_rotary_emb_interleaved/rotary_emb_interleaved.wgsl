// rotary_emb_interleaved: EdgeTAM's pair-interleaved RoPE, one invocation per (real, imag)
// pair of x [B, N, C]: with (cos, sin) = freqs[n, 2k], freqs[n, 2k + 1] (freqs_cis
// flattened to [N, C]),
//   out[2k]     = x[2k] * cos - x[2k + 1] * sin
//   out[2k + 1] = x[2k] * sin + x[2k + 1] * cos
// A pair is a vec2 of each binding's view, computed in f32 (float32, or float16 on the
// kernel's twins: each result rounded to half once).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let p = linear_index(gid, num_workgroups);
  if (p >= params.num_pairs) {
    return;
  }
  let row_pairs = params.N * params.half;  // pairs per batch
  let x = input_load(p);
  let cs = freqs_load(p % row_pairs);
  output_store(p, vec2<f32>(x.x * cs.x - x.y * cs.y, x.x * cs.y + x.y * cs.x));
}
