// conv2d_gemm: direct conv (groups == 1) as an implicit-im2col GEMM
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
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;
const WORKGROUP_SIZE_X: u32 = 16u;
const WORKGROUP_SIZE_Y: u32 = 16u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// @opgen-end declarations

const TILE_M: u32 = 64u;
const TILE_N: u32 = 64u;
const TILE_K: u32 = 16u;
const THREADS: u32 = WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y;

var<workgroup> a_tile: array<array<f32, TILE_K>, TILE_M>;  // weights [m][k]
var<workgroup> b_tile: array<array<f32, TILE_N>, TILE_K>;  // im2col [k][n]

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

// The im2col element (k, n): input[b, ic, ih, iw] for tap (ic, kh, kw) of output pixel n.
fn im2col(k: u32, n: u32, K: u32, N: u32) -> f32 {
  if (k >= K || n >= N) {
    return 0.0;
  }
  let taps = params.KH * params.KW;
  let ic = k / taps;
  let kh = (k % taps) / params.KW;
  let kw = k % params.KW;
  let ow = n % params.OW;
  let oh = (n / params.OW) % params.OH;
  let b = n / (params.OW * params.OH);
  let ih = i32(oh * params.sH + kh * params.dH) - i32(params.pH);
  let iw = i32(ow * params.sW + kw * params.dW) - i32(params.pW);
  if (ih < 0 || iw < 0 || ih >= i32(params.IH) || iw >= i32(params.IW)) {
    return 0.0;
  }
  return input[((b * params.IC + ic) * params.IH + u32(ih)) * params.IW + u32(iw)];
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let M = params.OC;
  let N = params.B * params.OH * params.OW;
  let K = params.IC * params.KH * params.KW;
  let m0 = wid.y * TILE_M;
  let n0 = wid.x * TILE_N;
  let tid = lid.y * WORKGROUP_SIZE_X + lid.x;

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
    for (var e = tid; e < TILE_K * TILE_N; e += THREADS) {
      let k = e / TILE_N;
      let n = e % TILE_N;
      b_tile[k][n] = im2col(k0 + k, n0 + n, K, N);
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

  let plane = params.OH * params.OW;
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
