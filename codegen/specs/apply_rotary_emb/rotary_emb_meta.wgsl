// rotary_emb_meta: Meta's RoPE. One invocation per (2j, 2j+1) pair of a head, read
// and written as one vec2; pairs [0, q_pairs) belong to xq, the rest to xk. The tables
// hold row s (the token), column j (the pair).

fn rotate(x: vec2<f32>, t: u32) -> vec2<f32> {
  let c = cos_table[t];
  let s = sin_table[t];
  return vec2<f32>(x.x * c - x.y * s, x.x * s + x.y * c);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let p = linear_index(gid, num_workgroups);
  if (p >= params.num_pairs) {
    return;
  }
  let is_q = p < params.q_pairs;
  let pair = select(p - params.q_pairs, p, is_q);
  let heads = select(params.Hk, params.Hq, is_q);
  let j = pair % params.half;
  let row = pair / params.half;  // (b, s, h) row of the [B, S, H, D] tensor
  let s = (row / heads) % params.S;
  let t = s * params.half + j;
  if (is_q) {
    xq_out[pair] = rotate(xq[pair], t);
  } else {
    xk_out[pair] = rotate(xk[pair], t);
  }
}
