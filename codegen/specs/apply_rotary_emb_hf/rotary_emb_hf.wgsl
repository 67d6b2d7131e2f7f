// rotary_emb_hf: rotate-half RoPE. One invocation per (i, i + half) pair of a head; pairs
// [0, q_pairs) belong to xq, the rest to xk. Tables are read at row start_pos + s.

// Rotated values of the pair (x1, x2) = (x[i], x[i + half]) at table row t.
fn rotate(x1: f32, x2: f32, t: u32, i: u32) -> vec2<f32> {
  let lo = t * params.D + i;
  let hi = lo + params.half;
  return vec2<f32>(x1 * cos_table[lo] - x2 * sin_table[lo],
                   x2 * cos_table[hi] + x1 * sin_table[hi]);
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
  let i = pair % params.half;
  let row = pair / params.half;  // (b, s, h) row of the [B, S, H, D] tensor
  let s = (row / heads) % params.S;
  let t = params.start_pos + s;
  let base = row * params.D + i;
  if (is_q) {
    let r = rotate(xq[base], xq[base + params.half], t, i);
    xq_out[base] = r.x;
    xq_out[base + params.half] = r.y;
  } else {
    let r = rotate(xk[base], xk[base + params.half], t, i);
    xk_out[base] = r.x;
    xk_out[base + params.half] = r.y;
  }
}
