// qk_per_row: attn[b, h, s, c] = dot(q[b, h, s], k[b, h, c]) * scale (+ mask), one
// invocation per (b, h, s) row walking every key with vec4 loads. Standard attention.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  Sq: u32,
  Skv: u32,
  D4: u32,
  H: u32,
  num_rows: u32,
  scale: f32,
  has_mask: u32,
  mask_strides: vec4<u32>,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read_write> attn: array<f32>;
const WORKGROUP_SIZE_X: u32 = 64u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = linear_index(gid, num_workgroups);
  if (row >= params.num_rows) {
    return;
  }
  let s = row % params.Sq;
  let bh = row / params.Sq;
  let q_base = row * params.D4;
  let k_base = bh * params.Skv * params.D4;
  let m = params.mask_strides;
  let mask_row = (bh / params.H) * m.x + (bh % params.H) * m.y + s * m.z;
  for (var c = 0u; c < params.Skv; c++) {
    var acc = vec4<f32>(0.0);
    let k_row = k_base + c * params.D4;
    for (var d = 0u; d < params.D4; d++) {
      acc += q[q_base + d] * k[k_row + d];
    }
    var value = (acc.x + acc.y + acc.z + acc.w) * params.scale;
    if (params.has_mask != 0u) {
      value += mask[mask_row + c * m.w];
    }
    attn[row * params.Skv + c] = value;
  }
}
