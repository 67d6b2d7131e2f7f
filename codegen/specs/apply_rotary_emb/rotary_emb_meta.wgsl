// rotary_emb_meta: Meta's RoPE. One invocation per (2j, 2j+1) pair of a head, read
// and written as one vec2; pairs [0, q_pairs) belong to xq, the rest to xk. The tables
// hold row s (the token), column j (the pair).

fn rotate(x: vec2<f32>, t: u32) -> vec2<f32> {
  let c = cos_table_load(t);
  let s = sin_table_load(t);
  return vec2<f32>(x.x * c - x.y * s, x.x * s + x.y * c);
}

fn write_element(p: u32) {
  let is_q = p < params.q_pairs;
  let pair = select(p - params.q_pairs, p, is_q);
  let heads = select(params.Hk, params.Hq, is_q);
  let j = pair % params.half;
  let row = pair / params.half;  // (b, s, h) row of the [B, S, H, D] tensor
  let s = (row / heads) % params.S;
  let t = s * params.half + j;
  if (is_q) {
    xq_out_store(pair, rotate(xq_load(pair), t));
  } else {
    xk_out_store(pair, rotate(xk_load(pair), t));
  }
}
