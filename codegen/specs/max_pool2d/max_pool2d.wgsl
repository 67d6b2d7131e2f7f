// max_pool2d: one thread per output element scans its window (padded cells skipped).
// NaN propagates as in torch (a NaN always wins, the last one's index is kept); the
// argmax is always tracked and `write_indices` gates only its store.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  IH: u32,
  IW: u32,
  OH: u32,
  OW: u32,
  kH: u32,
  kW: u32,
  sH: u32,
  sW: u32,
  pH: u32,
  pW: u32,
  dH: u32,
  dW: u32,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
@group(0) @binding(3) var<storage, read_write> indices: array<i32>;
override write_indices: bool = true;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

// A large finite negative (Tint rejects -FLT_MAX as a literal); the first cell of the
// window replaces it anyway, so an all -inf window still returns -inf as torch does.
const LOWEST: f32 = -3.4e38;

fn is_nan(v: f32) -> bool {
  return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  let ow = i % params.OW;
  let oh = (i / params.OW) % params.OH;
  let plane = i / (params.OW * params.OH);
  let base = plane * params.IH * params.IW;

  var best = LOWEST;
  var best_index = 0i;
  var found = false;
  for (var kh = 0u; kh < params.kH; kh++) {
    let ih = i32(oh * params.sH + kh * params.dH) - i32(params.pH);
    if (ih < 0 || ih >= i32(params.IH)) {
      continue;
    }
    for (var kw = 0u; kw < params.kW; kw++) {
      let iw = i32(ow * params.sW + kw * params.dW) - i32(params.pW);
      if (iw < 0 || iw >= i32(params.IW)) {
        continue;
      }
      let offset = ih * i32(params.IW) + iw;
      let v = input[base + u32(offset)];
      if (!found || v > best || is_nan(v)) {
        best = v;
        best_index = offset;
        found = true;
      }
    }
  }
  output[i] = best;
  if (write_indices) {
    indices[i] = best_index;
  }
}
