// @generated from codegen/specs/conv2d/conv_transpose2d.wgsl - DO NOT EDIT.
// wgsl-sha256: f95319faa184bf453e0c62fdaec65472c31c285eb3a2bac27c17a0aed5f945fe
#pragma once

#include <cstdint>

inline constexpr const char* kConvTranspose2dWGSL =
    R"wgsl(// conv_transpose2d: transposed conv in gather form, one thread per output element. Tap
// (kh, kw) reads input row ih = (oh + pH - kh * dH) / sH only when that division is
// exact and in range. Weight layout [IC, OC / groups, KH, KW] (torch's transposed).

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
@group(0) @binding(3) var<storage, read> wpack: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> bias: array<f32>;
@group(0) @binding(5) var<storage, read_write> output: array<f32>;
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
// Shared helpers (conv_gemm_loads.wgsl).
// Shared by the conv GEMM kernels, direct and transposed (emitted into their declaration
// blocks by opgen): a K step's loads. A loader holds four output pixels' input offsets at
// one tap (a TapWindow) and the tap-major packed weights (wpack[tap][ic][oc / 4]).

// Four output pixels as a loader sees them: their input origin (the input pixel at tap
// offset 0), their image's offset, and which exist.
struct PixelQuad {
  ih0: vec4<i32>,
  iw0: vec4<i32>,
  image: vec4<u32>,
  inside: vec4<bool>,
}

// Four consecutive output pixels n0..n0 + 3 (n = (b * OH + oh) * OW + ow).
fn pixel_quad(n0: u32) -> PixelQuad {
  let plane = params.OH * params.OW;
  let n = vec4<u32>(n0) + vec4<u32>(0u, 1u, 2u, 3u);
  let pix = n % vec4<u32>(plane);
  return PixelQuad(vec4<i32>(pix / vec4<u32>(params.OW) * params.sH) - i32(params.pH),
                   vec4<i32>(pix % vec4<u32>(params.OW) * params.sW) - i32(params.pW),
                   n / vec4<u32>(plane) * (params.IC * params.IH * params.IW),
                   n < vec4<u32>(params.B * plane));
}

// A quad's input offsets (in channel 0) at one tap, and which lie inside the image; a
// padding tap points at element 0, which is read and discarded.
struct TapWindow {
  at: vec4<u32>,
  ok: vec4<bool>,
}

// The window of the tap whose input pixel is the quad's origin moved by (dh, dw).
fn window_at(q: PixelQuad, dh: i32, dw: i32) -> TapWindow {
  let ih = q.ih0 + dh;
  let iw = q.iw0 + dw;
  let ok = q.inside & (ih >= vec4<i32>(0)) & (ih < vec4<i32>(i32(params.IH))) &
           (iw >= vec4<i32>(0)) & (iw < vec4<i32>(i32(params.IW)));
  return TapWindow(select(vec4<u32>(0u), q.image + vec4<u32>(ih * i32(params.IW) + iw), ok), ok);
}

// The window's four pixels in input channel ic (0 for padding or past IC).
fn load_quad(w: TapWindow, ic: u32) -> vec4<f32> {
  if (ic >= params.IC) {
    return vec4<f32>();
  }
  let o = w.at + vec4<u32>(ic * params.IH * params.IW);
  return select(vec4<f32>(), vec4<f32>(input[o.x], input[o.y], input[o.z], input[o.w]), w.ok);
}

// Output channels 4 * col..4 * col + 3 of input channel ic at one tap (0 past IC or OC).
fn load_weights(tap: u32, ic: u32, col: u32) -> vec4<f32> {
  let M4 = (params.OC + 3u) / 4u;
  if (ic >= params.IC || col >= M4) {
    return vec4<f32>();
  }
  return wpack[(tap * params.IC + ic) * M4 + col];
}
// @opgen-end declarations

// The input coordinate tap k contributes to output coordinate o, or -1 when none.
fn source(o: u32, k: u32, s: u32, p: u32, d: u32, size: u32) -> i32 {
  let num = i32(o + p) - i32(k * d);
  if (num < 0 || num % i32(s) != 0) {
    return -1;
  }
  let at = num / i32(s);
  return select(-1, at, at < i32(size));
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.B * params.OC * params.OH * params.OW) {
    return;
  }
  let o = output_element(i);
  let ocg = o.oc % o.ocpg;

  var acc = 0.0;
  for (var kh = 0u; kh < params.KH; kh++) {
    let ih = source(o.oh, kh, params.sH, params.pH, params.dH, params.IH);
    if (ih < 0) {
      continue;
    }
    for (var kw = 0u; kw < params.KW; kw++) {
      let iw = source(o.ow, kw, params.sW, params.pW, params.dW, params.IW);
      if (iw < 0) {
        continue;
      }
      for (var c = 0u; c < o.icpg; c++) {
        let ic = o.ic0 + c;
        let x = input[((o.b * params.IC + ic) * params.IH + u32(ih)) * params.IW + u32(iw)];
        acc += x * weight[((ic * o.ocpg + ocg) * params.KH + kh) * params.KW + kw];
      }
    }
  }
  output[i] = conv_epilogue(acc, o.oc);
}
)wgsl";

inline constexpr uint32_t kConvTranspose2dWorkgroupSizeX = 256;
inline constexpr uint32_t kConvTranspose2dWorkgroupSizeY = 1;
inline constexpr uint32_t kConvTranspose2dWorkgroupSizeZ = 1;
