// conv2d: the general direct conv (any groups, e.g. depthwise or a grouped RGB stem);
// one thread per output element.

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
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// Shared helpers (conv_epilogue.wgsl).
// Shared by every conv2d kernel (emitted into their declaration blocks by opgen; not a
// standalone module): reads the conv Params and the bias binding.

// Bias, then the optional clamp of conv_with_clamp (NaN passes through, as in torch).
fn conv_epilogue(acc: f32, oc: u32) -> f32 {
  var v = acc;
  if (params.has_bias != 0u) {
    v = v + bias[oc];
  }
  if (params.has_min != 0u) {
    v = select(v, params.min_value, v < params.min_value);
  }
  if (params.has_max != 0u) {
    v = select(v, params.max_value, v > params.max_value);
  }
  return v;
}
// Shared helpers (conv_direct.wgsl).
// Shared by the direct-dispatch conv kernels, one invocation per output element (emitted
// into their declaration blocks by opgen): where an output element sits.

// Output element i = ((b * OC + oc) * OH + oh) * OW + ow: its coordinates, the channels
// per group and its group's first input channel.
struct OutputElement {
  b: u32,
  oc: u32,
  oh: u32,
  ow: u32,
  icpg: u32,
  ocpg: u32,
  ic0: u32,
}

fn output_element(i: u32) -> OutputElement {
  let icpg = params.IC / params.groups;
  let ocpg = params.OC / params.groups;
  let oc = i / (params.OW * params.OH) % params.OC;
  return OutputElement(i / (params.OW * params.OH * params.OC), oc, i / params.OW % params.OH,
                       i % params.OW, icpg, ocpg, oc / ocpg * icpg);
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.B * params.OC * params.OH * params.OW) {
    return;
  }
  let o = output_element(i);

  var acc = 0.0;
  for (var c = 0u; c < o.icpg; c++) {
    for (var kh = 0u; kh < params.KH; kh++) {
      let ih = i32(o.oh * params.sH + kh * params.dH) - i32(params.pH);
      if (ih < 0 || ih >= i32(params.IH)) {
        continue;
      }
      for (var kw = 0u; kw < params.KW; kw++) {
        let iw = i32(o.ow * params.sW + kw * params.dW) - i32(params.pW);
        if (iw < 0 || iw >= i32(params.IW)) {
          continue;
        }
        let x = input[((o.b * params.IC + o.ic0 + c) * params.IH + u32(ih)) * params.IW + u32(iw)];
        acc += x * weight[((o.oc * o.icpg + c) * params.KH + kh) * params.KW + kw];
      }
    }
  }
  output[i] = conv_epilogue(acc, o.oc);
}
