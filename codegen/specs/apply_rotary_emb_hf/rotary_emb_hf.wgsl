// rotary_emb_hf: rotate-half RoPE, full or partial. One invocation per element; elements
// [0, q_elems) belong to xq, the rest to xk. Entries past the rotary dim R pass through.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  S: u32,
  Hq: u32,
  Hk: u32,
  D: u32,
  R: u32,
  half: u32,
  start_pos: u32,
  hf: u32,
  batch_rows: u32,
  q_elems: u32,
  num_elems: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> xq: array<f32>;
@group(0) @binding(2) var<storage, read> xk: array<f32>;
@group(0) @binding(3) var<storage, read> cos_table: array<f32>;
@group(0) @binding(4) var<storage, read> sin_table: array<f32>;
@group(0) @binding(5) var<storage, read_write> xq_out: array<f32>;
@group(0) @binding(6) var<storage, read_write> xk_out: array<f32>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

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
  let c = cos_table[t * params.R + i];
  let s = sin_table[t * params.R + i];
  if (i < params.half) {
    return x_i * c - partner * s;
  }
  return x_i * c + partner * s;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let e = linear_index(gid, num_workgroups);
  if (e >= params.num_elems) {
    return;
  }
  let is_q = e < params.q_elems;
  let local = select(e - params.q_elems, e, is_q);
  let i = local % params.D;
  let row = local / params.D;
  // the other element of i's pair: i + half in the first half, i - half in the second
  let partner_at = select(local - params.half, local + params.half, i < params.half);
  if (is_q) {
    var out = xq[local];
    if (i < params.R) {
      out = rotated(out, xq[partner_at], i, table_row(row, params.Hq));
    }
    xq_out[local] = out;
  } else {
    var out = xk[local];
    if (i < params.R) {
      out = rotated(out, xk[partner_at], i, table_row(row, params.Hk));
    }
    xk_out[local] = out;
  }
}
