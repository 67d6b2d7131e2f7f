// @generated from codegen/specs/conv2d/conv2d_gemm_wide.wgsl - DO NOT EDIT.
// wgsl-sha256: caaa255c6fab3ca88f7a7b21a74b2feb19a4c5f7d64c568df5ee34c83d640705
#pragma once

#include <cstdint>

inline constexpr const char* kConv2dGemmWideWGSL =
    R"wgsl(// conv2d_gemm_wide: the implicit-im2col GEMM for large layers. out[m, n] =
// sum_k weight[m, k] * im2col[k, n] with M = OC, N = B*OH*OW, K = IC*KH*KW, in
// 128x128 output tiles: 256 threads each own an 8x8 block (two interleaved 4-row by
// two 4-column vec4 groups, so shared-memory reads are whole vec4s), with 8-deep
// K slices staged in workgroup memory.

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

const BM: u32 = 128u;
const BN: u32 = 128u;
const BK: u32 = 8u;

var<workgroup> a_tile: array<array<vec4<f32>, 32>, 8>;  // [k][m / 4]: weights
var<workgroup> b_tile: array<array<vec4<f32>, 32>, 8>;  // [k][n / 4]: im2col

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let M = params.OC;
  let plane = params.OH * params.OW;
  let N = params.B * plane;
  let taps = params.KH * params.KW;
  let K = params.IC * taps;
  let m0 = wid.y * BM;
  let n0 = wid.x * BN;
  let tid = lid.y * WORKGROUP_SIZE_X + lid.x;

  // This thread's im2col column for the B loads: its pixel never changes along K.
  let b_col = tid % BN;
  let b_row = (tid / BN) * 4u;
  let n = n0 + b_col;
  let n_ok = n < N;
  let batch = n / plane;
  let oh = (n % plane) / params.OW;
  let ow = n % params.OW;
  let ih0 = i32(oh * params.sH) - i32(params.pH);
  let iw0 = i32(ow * params.sW) - i32(params.pW);
  let image = batch * params.IC * params.IH * params.IW;
  // The A loads: eight consecutive threads read eight consecutive k of one weight row.
  let a_k = tid % BK;
  let a_m = tid / BK;

  var acc: array<vec4<f32>, 16>;  // [row r][column group g] at acc[2 * r + g]
  for (var k0 = 0u; k0 < K; k0 += BK) {
    for (var i = 0u; i < 4u; i++) {
      let m = a_m + 32u * i;
      let k = k0 + a_k;
      var w = 0.0;
      if (m0 + m < M && k < K) {
        w = weight[(m0 + m) * K + k];
      }
      a_tile[a_k][m / 4u][m % 4u] = w;
    }
    for (var i = 0u; i < 4u; i++) {
      let k = k0 + b_row + i;
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
      b_tile[b_row + i][b_col / 4u][b_col % 4u] = v;
    }
    workgroupBarrier();
    for (var k = 0u; k < BK; k++) {
      let a_lo = a_tile[k][lid.y];
      let a_hi = a_tile[k][lid.y + 16u];
      let b_lo = b_tile[k][lid.x];
      let b_hi = b_tile[k][lid.x + 16u];
      for (var r = 0u; r < 4u; r++) {
        acc[2u * r] += a_lo[r] * b_lo;
        acc[2u * r + 1u] += a_lo[r] * b_hi;
        acc[8u + 2u * r] += a_hi[r] * b_lo;
        acc[8u + 2u * r + 1u] += a_hi[r] * b_hi;
      }
    }
    workgroupBarrier();
  }

  for (var r = 0u; r < 8u; r++) {
    // rows 0..3 are m0 + 4 * lid.y + r; rows 4..7 sit 64 rows further down
    let m = m0 + 4u * lid.y + (r % 4u) + 64u * (r / 4u);
    if (m >= M) {
      continue;
    }
    for (var g = 0u; g < 2u; g++) {
      for (var c = 0u; c < 4u; c++) {
        let col = n0 + 4u * lid.x + 64u * g + c;
        if (col < N) {
          let b = col / plane;
          output[(b * M + m) * plane + col % plane] = epilogue(acc[2u * r + g][c], m);
        }
      }
    }
  }
}
)wgsl";

inline constexpr uint32_t kConv2dGemmWideWorkgroupSizeX = 16;
inline constexpr uint32_t kConv2dGemmWideWorkgroupSizeY = 16;
inline constexpr uint32_t kConv2dGemmWideWorkgroupSizeZ = 1;
