// @generated from codegen/specs/conv2d/conv2d.wgsl - DO NOT EDIT.
// wgsl-sha256: 151a605edd0b717c08f507718f19f72ee8df33631260f57e2f457ce38ccf230a
#pragma once

#include <cstdint>

inline constexpr const char* kConv2dWGSL =
    R"wgsl(// conv2d: the general direct conv (any groups, e.g. depthwise or a grouped RGB stem);
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
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read> wpack: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> bias: array<f32>;
@group(0) @binding(5) var<storage, read_write> partial: array<f32>;
@group(0) @binding(6) var<storage, read_write> output: array<f32>;
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
fn epilogue(acc: f32, oc: u32) -> f32 {
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
// Shared helpers (conv_gemm.wgsl).
// Shared by the conv2d GEMM kernels (emitted into their declaration blocks by opgen): the
// tap-major walk over K and the split-K store. K step s is tap s / steps_per_tap and
// input channels from (s % steps_per_tap) * bk (the kernel's step); a step's im2col rows
// are channel planes shifted by one tap, so a loader finds its pixels' input offsets once
// per tap and then only adds a plane stride.

// Four consecutive output pixels n0..n0 + 3 (n = (b * OH + oh) * OW + ow) as a loader sees
// them: their input origin, their image's offset, and which exist.
struct PixelQuad {
  ih0: vec4<i32>,
  iw0: vec4<i32>,
  image: vec4<u32>,
  inside: vec4<bool>,
}

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

fn tap_window(q: PixelQuad, tap: u32) -> TapWindow {
  let ih = q.ih0 + i32(tap / params.KW * params.dH);
  let iw = q.iw0 + i32(tap % params.KW * params.dW);
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

// The K steps [x, y) of split-K slice `slice`, for steps of bk input channels.
fn slice_steps(slice: u32, bk: u32) -> vec2<u32> {
  let total = params.KH * params.KW * ((params.IC + bk - 1u) / bk);
  return vec2<u32>(slice * total / params.split, (slice + 1u) * total / params.split);
}

// Output channel m at pixels n0..n0 + 3: through the epilogue into the output or, with K
// split, this slice's raw sums into its partial plane (conv2d_split_sum adds them up).
fn store_quad(m: u32, n0: u32, v: vec4<f32>, slice: u32) {
  let plane = params.OH * params.OW;
  let N = params.B * plane;
  if (m >= params.OC) {
    return;
  }
  for (var c = 0u; c < 4u; c++) {
    let n = n0 + c;
    if (n >= N) {
      return;
    }
    let i = (n / plane * params.OC + m) * plane + n % plane;
    if (params.split == 1u) {
      output[i] = epilogue(v[c], m);
    } else {
      partial[slice * N * params.OC + i] = v[c];
    }
  }
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.B * params.OC * params.OH * params.OW) {
    return;
  }
  let ow = i % params.OW;
  let oh = (i / params.OW) % params.OH;
  let oc = (i / (params.OW * params.OH)) % params.OC;
  let b = i / (params.OW * params.OH * params.OC);
  let icpg = params.IC / params.groups;
  let ocpg = params.OC / params.groups;
  let ic0 = (oc / ocpg) * icpg;

  var acc = 0.0;
  for (var c = 0u; c < icpg; c++) {
    for (var kh = 0u; kh < params.KH; kh++) {
      let ih = i32(oh * params.sH + kh * params.dH) - i32(params.pH);
      if (ih < 0 || ih >= i32(params.IH)) {
        continue;
      }
      for (var kw = 0u; kw < params.KW; kw++) {
        let iw = i32(ow * params.sW + kw * params.dW) - i32(params.pW);
        if (iw < 0 || iw >= i32(params.IW)) {
          continue;
        }
        let x = input[((b * params.IC + ic0 + c) * params.IH + u32(ih)) * params.IW + u32(iw)];
        acc += x * weight[((oc * icpg + c) * params.KH + kh) * params.KW + kw];
      }
    }
  }
  output[i] = epilogue(acc, oc);
}
)wgsl";

inline constexpr uint32_t kConv2dWorkgroupSizeX = 256;
inline constexpr uint32_t kConv2dWorkgroupSizeY = 1;
inline constexpr uint32_t kConv2dWorkgroupSizeZ = 1;
