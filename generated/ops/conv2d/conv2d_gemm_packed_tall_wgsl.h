// @generated from codegen/specs/conv2d/conv2d_gemm_packed_tall.wgsl - DO NOT EDIT.
// wgsl-sha256: 5b38029199898e9945a6a8e7b28afcabe68d77d4548ad90b7144d27dca4abc6d
#pragma once

#include <cstdint>

inline constexpr const char* kConv2dGemmPackedTallWGSL =
    R"wgsl(// conv2d_gemm_packed_tall: direct conv (groups == 1) as an implicit-im2col GEMM over the
// tap-major weights of conv2d_pack_weights:
//   out[oc, n] = sum over taps (kh, kw) and channels ic of
//                wpack[tap][ic][oc] * input[b, ic, oh * sH - pH + kh * dH, ow * sW - pW + kw * dW]
// K walks one tap at a time in steps of BK input channels, so a step's im2col rows are
// channel planes shifted by one tap: each thread finds its 4 output pixels' input offsets
// once per tap and then only adds a plane stride (no division inside the loop). Each
// 16x8 workgroup computes a 64 (channels) x 64 (pixels) tile, 8 channels x 4 pixels per
// thread, from vec4 tiles in workgroup memory. An out-of-range tap reads 0 (padding).

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
@group(0) @binding(5) var<storage, read_write> output: array<f32>;
const WORKGROUP_SIZE_X: u32 = 16u;
const WORKGROUP_SIZE_Y: u32 = 8u;
const WORKGROUP_SIZE_Z: u32 = 1u;
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
// @opgen-end declarations

const BM: u32 = 64u;  // output channels per tile
const BN: u32 = 64u;  // output pixels per tile
const BK: u32 = 16u;  // input channels per step
const ROW4: u32 = 16u;  // vec4s per tile row (BM / 4 == BN / 4)
const HALF: u32 = 128u;  // tile entries per loader pass (one per invocation)

var<workgroup> a_tile: array<vec4<f32>, 256>;  // [k][m / 4]: 4 output channels per vec4
var<workgroup> b_tile: array<vec4<f32>, 256>;  // [k][n / 4]: 4 output pixels per vec4

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let M4 = (params.OC + 3u) / 4u;
  let N = params.B * params.OH * params.OW;
  let plane = params.OH * params.OW;
  let in_plane = params.IH * params.IW;
  let tid = lid.y * WORKGROUP_SIZE_X + lid.x;

  // Loader role, the same in both tiles: rows ld_k and ld_k + BK / 2, vec4 column ld_c.
  let ld_k = tid / ROW4;
  let ld_c = tid % ROW4;
  let a_col = wid.y * (BM / 4u) + ld_c;
  let a_ok = a_col < M4;
  let n = vec4<u32>(wid.x * BN + 4u * ld_c) + vec4<u32>(0u, 1u, 2u, 3u);
  let n_ok = n < vec4<u32>(N);
  let pix = n % vec4<u32>(plane);
  let ih0 = vec4<i32>(pix / vec4<u32>(params.OW) * params.sH) - i32(params.pH);
  let iw0 = vec4<i32>(pix % vec4<u32>(params.OW) * params.sW) - i32(params.pW);
  let image = n / vec4<u32>(plane) * (params.IC * in_plane);

  // output channel 8 * lid.y + r in acc<r>, pixels 4 * lid.x + 0..3
  var acc0 = vec4<f32>();
  var acc1 = vec4<f32>();
  var acc2 = vec4<f32>();
  var acc3 = vec4<f32>();
  var acc4 = vec4<f32>();
  var acc5 = vec4<f32>();
  var acc6 = vec4<f32>();
  var acc7 = vec4<f32>();
  var kh = 0u;
  var kw = 0u;
  let taps = params.KH * params.KW;
  for (var tap = 0u; tap < taps; tap++) {
    let ih = ih0 + i32(kh * params.dH);
    let iw = iw0 + i32(kw * params.dW);
    let ok = n_ok & (ih >= vec4<i32>(0)) & (ih < vec4<i32>(i32(params.IH))) &
             (iw >= vec4<i32>(0)) & (iw < vec4<i32>(i32(params.IW)));
    // a padding tap reads element 0 and discards it
    let at = select(vec4<u32>(0u), image + vec4<u32>(ih * i32(params.IW) + iw), ok);
    let w_row = tap * params.IC;
    for (var c0 = 0u; c0 < params.IC; c0 += BK) {
      let ic0 = c0 + ld_k;
      let ic1 = ic0 + BK / 2u;
      var a0 = vec4<f32>();
      var a1 = vec4<f32>();
      var b0 = vec4<f32>();
      var b1 = vec4<f32>();
      if (ic0 < params.IC) {
        if (a_ok) {
          a0 = wpack[(w_row + ic0) * M4 + a_col];
        }
        let o = at + vec4<u32>(ic0 * in_plane);
        b0 = select(vec4<f32>(), vec4<f32>(input[o.x], input[o.y], input[o.z], input[o.w]), ok);
      }
      if (ic1 < params.IC) {
        if (a_ok) {
          a1 = wpack[(w_row + ic1) * M4 + a_col];
        }
        let o = at + vec4<u32>(ic1 * in_plane);
        b1 = select(vec4<f32>(), vec4<f32>(input[o.x], input[o.y], input[o.z], input[o.w]), ok);
      }
      workgroupBarrier();  // the previous step's reads are done
      a_tile[tid] = a0;
      a_tile[tid + HALF] = a1;
      b_tile[tid] = b0;
      b_tile[tid + HALF] = b1;
      workgroupBarrier();
      for (var k = 0u; k < BK; k++) {
        let lo = a_tile[k * ROW4 + 2u * lid.y];
        let hi = a_tile[k * ROW4 + 2u * lid.y + 1u];
        let bv = b_tile[k * ROW4 + lid.x];
        acc0 += lo.x * bv;
        acc1 += lo.y * bv;
        acc2 += lo.z * bv;
        acc3 += lo.w * bv;
        acc4 += hi.x * bv;
        acc5 += hi.y * bv;
        acc6 += hi.z * bv;
        acc7 += hi.w * bv;
      }
    }
    kw++;
    if (kw == params.KW) {
      kw = 0u;
      kh++;
    }
  }

  let m = wid.y * BM + 8u * lid.y;
  let n0 = wid.x * BN + 4u * lid.x;
  store_pixels(m, n0, acc0);
  store_pixels(m + 1u, n0, acc1);
  store_pixels(m + 2u, n0, acc2);
  store_pixels(m + 3u, n0, acc3);
  store_pixels(m + 4u, n0, acc4);
  store_pixels(m + 5u, n0, acc5);
  store_pixels(m + 6u, n0, acc6);
  store_pixels(m + 7u, n0, acc7);
}

// Output channel m at pixels n0..n0 + 3 (NCHW), through the epilogue.
fn store_pixels(m: u32, n0: u32, v: vec4<f32>) {
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
    output[(n / plane * params.OC + m) * plane + n % plane] = epilogue(v[c], m);
  }
}
)wgsl";

inline constexpr uint32_t kConv2dGemmPackedTallWorkgroupSizeX = 16;
inline constexpr uint32_t kConv2dGemmPackedTallWorkgroupSizeY = 8;
inline constexpr uint32_t kConv2dGemmPackedTallWorkgroupSizeZ = 1;
