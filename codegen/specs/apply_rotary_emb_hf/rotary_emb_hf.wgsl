// rotary_emb_hf: rotate-half RoPE, full or partial. One invocation per element; elements
// [0, q_elems) belong to xq, the rest to xk. Entries past the rotary dim R pass through.

// The cos/sin table row of head row `row` (the [.., D] row of xq or xk with `heads` heads).
fn table_row(row: u32, heads: u32) -> u32 {
  if (params.hf == 0u) {
    return params.start_pos + (row / heads) % params.S;  // [B, S, H, D], [max_seq, R] tables
  }
  // [B, H, S, D] with [1 or B, S, R] tables
  return (row / (heads * params.S)) * params.batch_rows + row % params.S;
}

// Element i (< R) of a head, `partner` the other element of its pair, at table row t.
fn rotated(x_i: f32, partner: f32, i: u32, t: u32) -> f32 {
  let c = cos_table_load(t * params.R + i);
  let s = sin_table_load(t * params.R + i);
  if (i < params.half) {
    return x_i * c - partner * s;
  }
  return x_i * c + partner * s;
}

fn write_element(e: u32) {
  let is_q = e < params.q_elems;
  let local = select(e - params.q_elems, e, is_q);
  let i = local % params.D;
  let row = local / params.D;
  // the other element of i's pair: i + half in the first half, i - half in the second
  let partner_at = select(local - params.half, local + params.half, i < params.half);
  if (is_q) {
    var out = xq_load(local);
    if (i < params.R) {
      out = rotated(out, xq_load(partner_at), i, table_row(row, params.Hq));
    }
    xq_out_store(local, out);
  } else {
    var out = xk_load(local);
    if (i < params.R) {
      out = rotated(out, xk_load(partner_at), i, table_row(row, params.Hk));
    }
    xk_out_store(local, out);
  }
}
