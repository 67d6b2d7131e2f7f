// conv2d_pack_weights: weight [OC, IC, KH, KW] (TRANSPOSED: [IC, OC, KH, KW], groups 1) ->
// wpack [KH * KW][IC][ceil(OC / 4)] vec4s for the conv GEMMs: tap-major, 4 output channels
// per vec4, zero past OC. One invocation per vec4.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  B: u32,
  IC: u32,
  IH: u32,
  IW: u32,
  OC: u32,
  OH: u32,
  OW: u32,
  KH: u32,
  KW: u32,
  sH: u32,
  sW: u32,
  pH: u32,
  pW: u32,
  dH: u32,
  dW: u32,
  groups: u32,
  split: u32,
  has_bias: u32,
  has_min: u32,
  has_max: u32,
  min_value: f32,
  max_value: f32,
  M: u32,
  N: u32,
  K: u32,
  batch: u32,
  k_chunk: u32,
  head_rows: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> weight: array<f32>;
@group(0) @binding(2) var<storage, read_write> wpack: array<vec4<f32>>;
override TRANSPOSED: bool = false;
const WORKGROUP_SIZE_X: u32 = 256u;
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
  let i = linear_index(gid, num_workgroups);
  let M4 = (params.OC + 3u) / 4u;
  let taps = params.KH * params.KW;
  if (i >= taps * params.IC * M4) {
    return;
  }
  let m = (i % M4) * 4u;
  let ic = (i / M4) % params.IC;
  let tap = i / (M4 * params.IC);
  var v = vec4<f32>();
  for (var j = 0u; j < 4u; j++) {
    if (m + j < params.OC) {
      v[j] = weight[weight_index(m + j, ic, tap)];
    }
  }
  wpack[i] = v;
}

// The weight of output channel oc, input channel ic at tap `tap`.
fn weight_index(oc: u32, ic: u32, tap: u32) -> u32 {
  let taps = params.KH * params.KW;
  if (TRANSPOSED) {
    return (ic * params.OC + oc) * taps + tap;
  }
  return (oc * params.IC + ic) * taps + tap;
}
