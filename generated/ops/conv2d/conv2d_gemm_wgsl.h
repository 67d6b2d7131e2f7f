// @generated from codegen/specs/conv2d/conv2d_gemm.wgsl - DO NOT EDIT.
// wgsl-sha256: 1a2d2699e1f7a415801cb35ef343a70101050525e0e6eebaf8346b1ff184dc2c
#pragma once

#include <cstdint>

inline constexpr const char* kConv2dGemmWGSL =
    R"wgsl(// conv2d_gemm: direct conv (groups == 1) as an implicit-im2col GEMM
//   out[M = OC, N = B * OH * OW] = weight[M, K = IC * KH * KW] x im2col(input)[K, N]
// Each 16x16 workgroup computes a 64x64 output tile, 4x4 per thread (register
// blocking), staging 64x16 weight and 16x64 input tiles in workgroup memory. The
// input is sampled on the fly: an out-of-range tap reads 0 (padding).

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
const WORKGROUP_SIZE_Y: u32 = 16u;
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

const TILE_M: u32 = 64u;
const TILE_N: u32 = 64u;
const TILE_K: u32 = 16u;
const THREADS: u32 = WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y;

var<workgroup> a_tile: array<array<f32, TILE_K>, TILE_M>;  // weights [m][k]
var<workgroup> b_tile: array<array<f32, TILE_N>, TILE_K>;  // im2col [k][n]

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let M = params.OC;
  let N = params.B * params.OH * params.OW;
  let K = params.IC * params.KH * params.KW;
  let m0 = wid.y * TILE_M;
  let n0 = wid.x * TILE_N;
  let tid = lid.y * WORKGROUP_SIZE_X + lid.x;
  let taps = params.KH * params.KW;
  let plane = params.OH * params.OW;

  // The im2col loads: THREADS is a multiple of TILE_N, so this thread always loads the
  // same output pixel n (rows b_k, b_k + THREADS / TILE_N, ...): decompose it once.
  let b_n = tid % TILE_N;
  let b_k = tid / TILE_N;
  let n = n0 + b_n;
  let n_ok = n < N;
  let oh = (n % plane) / params.OW;
  let ow = n % params.OW;
  let ih0 = i32(oh * params.sH) - i32(params.pH);
  let iw0 = i32(ow * params.sW) - i32(params.pW);
  let image = (n / plane) * params.IC * params.IH * params.IW;

  var acc: array<vec4<f32>, 4>;  // rows m0 + 4 * lid.y + r, columns n0 + 4 * lid.x + 0..3
  for (var k0 = 0u; k0 < K; k0 += TILE_K) {
    for (var e = tid; e < TILE_M * TILE_K; e += THREADS) {
      let m = e / TILE_K;
      let k = e % TILE_K;
      var w = 0.0;
      if (m0 + m < M && k0 + k < K) {
        w = weight[(m0 + m) * K + k0 + k];
      }
      a_tile[m][k] = w;
    }
    for (var kk = b_k; kk < TILE_K; kk += THREADS / TILE_N) {
      let k = k0 + kk;
      var v = 0.0;
      if (n_ok && k < K) {
        let ic = k / taps;
        let tap = k % taps;
        let ih = ih0 + i32((tap / params.KW) * params.dH);
        let iw = iw0 + i32((tap % params.KW) * params.dW);
        if (ih >= 0 && iw >= 0 && ih < i32(params.IH) && iw < i32(params.IW)) {
          v = input[image + (ic * params.IH + u32(ih)) * params.IW + u32(iw)];
        }
      }
      b_tile[kk][b_n] = v;
    }
    workgroupBarrier();
    for (var k = 0u; k < TILE_K; k++) {
      let b = vec4<f32>(b_tile[k][4u * lid.x], b_tile[k][4u * lid.x + 1u],
                        b_tile[k][4u * lid.x + 2u], b_tile[k][4u * lid.x + 3u]);
      for (var r = 0u; r < 4u; r++) {
        acc[r] += a_tile[4u * lid.y + r][k] * b;
      }
    }
    workgroupBarrier();
  }

  for (var r = 0u; r < 4u; r++) {
    let m = m0 + 4u * lid.y + r;
    if (m >= M) {
      break;
    }
    for (var c = 0u; c < 4u; c++) {
      let n = n0 + 4u * lid.x + c;
      if (n >= N) {
        break;
      }
      let b = n / plane;
      output[(b * M + m) * plane + n % plane] = epilogue(acc[r][c], m);
    }
  }
}
)wgsl";

inline constexpr uint32_t kConv2dGemmWorkgroupSizeX = 16;
inline constexpr uint32_t kConv2dGemmWorkgroupSizeY = 16;
inline constexpr uint32_t kConv2dGemmWorkgroupSizeZ = 1;
