// @generated from codegen/specs/conv2d/conv2d_gemm128.wgsl - DO NOT EDIT.
// wgsl-sha256: 9a666761742f2c1f5ea7ceccca649af51a64d7e2bc90b9d86a4c0911992b9bd3
#pragma once

#include <cstdint>

inline constexpr const char* kConv2dGemm128WGSL =
    R"wgsl(// conv2d_gemm128: direct conv (groups == 1) on the matmul spec's 128x128 tile
// (gemm_tile.wgsl), one GEMM over every image's pixels (n = (b * OH + oh) * OW + ow):
//   out (OC x B * OH * OW) = weight (OC x K, its own row-major layout, read in place)
//                            @ im2col(input) (K x B * OH * OW)
// with K = IC * KH * KW and im2col row k = (ic * KH + kh) * KW + kw. Pixel tiles cross
// images (B8 14x14: 13 tiles of 128 for 1568 pixels, where a GEMM per image would pad
// each image's 196 to 256); out_index writes NCHW, and the split-K partials the same way,
// as conv2d_split_sum reads them.

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
@group(0) @binding(2) var<storage, read> weight: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> wpack: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> bias: array<f32>;
@group(0) @binding(5) var<storage, read_write> partial: array<f32>;
@group(0) @binding(6) var<storage, read_write> output: array<f32>;
override B_IS_NK: bool = false;
override WEIGHT_VEC4: bool = true;
const WORKGROUP_SIZE_X: u32 = 16u;
const WORKGROUP_SIZE_Y: u32 = 16u;
const WORKGROUP_SIZE_Z: u32 = 1u;
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
// Shared helpers (../matmul/gemm_tile.wgsl).
// Shared by the tiled GEMM kernels (emitted into their declaration blocks by opgen): the
// walk of one 128x128 output tile over its K slice, the split-K store and the epilogue.
// The kernel supplies load_a(z, m, k, end) (A[z][m][k..k + 3]) and load_b(z, r, c, end)
// (B_IS_NK: W[z][n = r][k = c..c + 3], else B[z][k = r][n = c..c + 3]), zeros outside,
// epilogue(value, m, n) and out_index(z, m, n): the output element of C[z][m][n].
//
// Split K: slice s of a tile sums K steps [s * k_chunk, (s + 1) * k_chunk) into partial,
// laid out as the output's elements from row head_rows on, one slice after another, for
// gemm_split_sum to add. Tiles whose rows start below head_rows take all of K in slice 0
// and store the result themselves (the other slices return at once): with head_rows > 0
// (one matrix, its tiles a round of workgroups and a short tail of tile rows) only the
// tail's tiles are split, over the SMs the round leaves idle.
//
// 16x16 threads; thread (x, y) owns output rows 4y..4y+3 and 64+4y..64+4y+3 and columns
// 4x..4x+3 and 64+4x..64+4x+3: eight rows of two vec4s, acc<row>_<column half>. Each K
// step stages an 8 x 128 slice of A and of B in workgroup memory, k-major, 4 rows or
// columns per vec4; the next step's slices are loaded into registers while this one
// computes, so one barrier per step suffices (two buffers of each: 16 KiB, WebGPU's
// default workgroup storage limit).
//
// How the K loop is written decides what the driver makes of it (NVIDIA's code read back
// by benchmarks/probe_sass.py; H200 figures in docs/performance.md): a `for k` loop over
// the step is not unrolled, so each k waits for its workgroup loads; the step is written
// out as K_STEP calls of multiply_k instead, on private accumulators. The loads of the
// step after next are issued right after the barrier, unconditionally (past the end they
// are zeros): loads under an `if`, or before the FMAs in the same block, were moved below
// the FMAs, where nothing hides their latency. Together: 0.71x to 0.90x cuBLAS at 4096³.

const TILE: u32 = 128u;
const K_STEP: u32 = 8u;
const STAGE: u32 = 256u;  // vec4s per staged slice (K_STEP * TILE / 4)

var<workgroup> a_tile: array<vec4<f32>, 512>;  // [buffer][k][m / 4]
var<workgroup> b_tile: array<vec4<f32>, 512>;  // [buffer][k][n / 4]

struct Staged {
  a: vec4<f32>,
  b: vec4<f32>,
}

// Thread tid loads A row tid / 2, k (tid % 2) * 4..+3; B likewise as [N][K], or as [K][N]
// row tid / 32, columns (tid % 32) * 4..+3.
fn stage_load(z: u32, m0: u32, n0: u32, k0: u32, end: u32, tid: u32) -> Staged {
  let row = tid / 2u;
  let k = k0 + tid % 2u * 4u;
  var s: Staged;
  s.a = load_a(z, m0 + row, k, end);
  if (B_IS_NK) {
    s.b = load_b(z, n0 + row, k, end);
  } else {
    s.b = load_b(z, k0 + tid / 32u, n0 + tid % 32u * 4u, end);
  }
  return s;
}

fn stage_store(s: Staged, buffer: u32, tid: u32) {
  // Components by name, never by a runtime index: an indexed vector may be spilled to
  // memory (measured: the indexed form ran at 0.6x on the H200).
  let row = tid / 2u;
  let at = buffer + tid % 2u * 4u * (TILE / 4u) + row / 4u;
  let lane = row % 4u;
  a_tile[at][lane] = s.a.x;
  a_tile[at + TILE / 4u][lane] = s.a.y;
  a_tile[at + TILE / 2u][lane] = s.a.z;
  a_tile[at + 3u * TILE / 4u][lane] = s.a.w;
  if (B_IS_NK) {
    b_tile[at][lane] = s.b.x;
    b_tile[at + TILE / 4u][lane] = s.b.y;
    b_tile[at + TILE / 2u][lane] = s.b.z;
    b_tile[at + 3u * TILE / 4u][lane] = s.b.w;
  } else {
    b_tile[buffer + tid] = s.b;
  }
}

// Columns n..n + 3 of row m: the result, or with split-K this slice's partial sums.
fn store_quad(z: u32, slice: u32, m: u32, n: u32, v: vec4<f32>) {
  if (m >= params.M) {
    return;
  }
  store_one(z, slice, m, n, v.x);
  store_one(z, slice, m, n + 1u, v.y);
  store_one(z, slice, m, n + 2u, v.z);
  store_one(z, slice, m, n + 3u, v.w);
}

fn store_one(z: u32, slice: u32, m: u32, n: u32, value: f32) {
  if (n >= params.N) {
    return;
  }
  let i = out_index(z, m, n);
  if (params.split > 1u && m >= params.head_rows) {
    let first = params.head_rows * params.N;
    partial[slice * (params.batch * params.M * params.N - first) + i - first] = value;
  } else {
    output[i] = epilogue(value, m, n);
  }
}

// This thread's 8 x 8 outputs. Named vectors, never an array: they must stay in registers.
var<private> acc0_0: vec4<f32>;
var<private> acc0_1: vec4<f32>;
var<private> acc1_0: vec4<f32>;
var<private> acc1_1: vec4<f32>;
var<private> acc2_0: vec4<f32>;
var<private> acc2_1: vec4<f32>;
var<private> acc3_0: vec4<f32>;
var<private> acc3_1: vec4<f32>;
var<private> acc4_0: vec4<f32>;
var<private> acc4_1: vec4<f32>;
var<private> acc5_0: vec4<f32>;
var<private> acc5_1: vec4<f32>;
var<private> acc6_0: vec4<f32>;
var<private> acc6_1: vec4<f32>;
var<private> acc7_0: vec4<f32>;
var<private> acc7_1: vec4<f32>;

// One k of the staged slices (`row`: its first vec4): the outer product of thread (x, y)'s
// A and B quads added into its accumulators.
fn multiply_k(row: u32, x: u32, y: u32) {
  let a0 = a_tile[row + y];
  let a1 = a_tile[row + y + 16u];
  let b0 = b_tile[row + x];
  let b1 = b_tile[row + x + 16u];
  acc0_0 = fma(vec4<f32>(a0.x), b0, acc0_0);
  acc0_1 = fma(vec4<f32>(a0.x), b1, acc0_1);
  acc1_0 = fma(vec4<f32>(a0.y), b0, acc1_0);
  acc1_1 = fma(vec4<f32>(a0.y), b1, acc1_1);
  acc2_0 = fma(vec4<f32>(a0.z), b0, acc2_0);
  acc2_1 = fma(vec4<f32>(a0.z), b1, acc2_1);
  acc3_0 = fma(vec4<f32>(a0.w), b0, acc3_0);
  acc3_1 = fma(vec4<f32>(a0.w), b1, acc3_1);
  acc4_0 = fma(vec4<f32>(a1.x), b0, acc4_0);
  acc4_1 = fma(vec4<f32>(a1.x), b1, acc4_1);
  acc5_0 = fma(vec4<f32>(a1.y), b0, acc5_0);
  acc5_1 = fma(vec4<f32>(a1.y), b1, acc5_1);
  acc6_0 = fma(vec4<f32>(a1.z), b0, acc6_0);
  acc6_1 = fma(vec4<f32>(a1.z), b1, acc6_1);
  acc7_0 = fma(vec4<f32>(a1.w), b0, acc7_0);
  acc7_1 = fma(vec4<f32>(a1.w), b1, acc7_1);
}

fn gemm_tile(lid: vec3<u32>, wid: vec3<u32>) {
  let tid = lid.y * 16u + lid.x;
  let slice = wid.z % params.split;
  let z = wid.z / params.split;
  let m0 = wid.y * TILE;
  let n0 = wid.x * TILE;
  let whole = m0 < params.head_rows;
  if (whole && slice > 0u) {
    return;  // the whole workgroup: m0 is uniform
  }
  let k_begin = select(slice * params.k_chunk, 0u, whole);
  let k_end = select(min(params.K, k_begin + params.k_chunk), params.K, whole);
  if (k_begin < k_end) {
    stage_store(stage_load(z, m0, n0, k_begin, k_end, tid), 0u, tid);
  }
  workgroupBarrier();
  var buffer = 0u;
  var next = stage_load(z, m0, n0, k_begin + K_STEP, k_end, tid);
  for (var k0 = k_begin; k0 < k_end; k0 += K_STEP) {
    multiply_k(buffer, lid.x, lid.y);
    multiply_k(buffer + TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 2u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 3u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 4u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 5u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 6u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 7u * TILE / 4u, lid.x, lid.y);
    buffer = STAGE - buffer;
    stage_store(next, buffer, tid);
    workgroupBarrier();
    next = stage_load(z, m0, n0, k0 + 2u * K_STEP, k_end, tid);
  }
  let top = m0 + 4u * lid.y;
  let bottom = top + TILE / 2u;
  let left = n0 + 4u * lid.x;
  let right = left + TILE / 2u;
  store_quad(z, slice, top, left, acc0_0);
  store_quad(z, slice, top, right, acc0_1);
  store_quad(z, slice, top + 1u, left, acc1_0);
  store_quad(z, slice, top + 1u, right, acc1_1);
  store_quad(z, slice, top + 2u, left, acc2_0);
  store_quad(z, slice, top + 2u, right, acc2_1);
  store_quad(z, slice, top + 3u, left, acc3_0);
  store_quad(z, slice, top + 3u, right, acc3_1);
  store_quad(z, slice, bottom, left, acc4_0);
  store_quad(z, slice, bottom, right, acc4_1);
  store_quad(z, slice, bottom + 1u, left, acc5_0);
  store_quad(z, slice, bottom + 1u, right, acc5_1);
  store_quad(z, slice, bottom + 2u, left, acc6_0);
  store_quad(z, slice, bottom + 2u, right, acc6_1);
  store_quad(z, slice, bottom + 3u, left, acc7_0);
  store_quad(z, slice, bottom + 3u, right, acc7_1);
}
// @opgen-end declarations

// gemm_tile's B loader column is fixed for a thread (n0 + (tid % 32) * 4), so its four
// output pixels are decoded once (workgroup z is the split-K slice: one GEMM); its rows advance by K_STEP per call, so the row's
// (ic, kh, kw) is carried from call to call instead of divided out each time.
var<private> pixels: PixelQuad;
var<private> next_k: u32;  // the row the carried (ic, kh, kw) belongs to
var<private> tap_ic: u32;
var<private> tap_kh: u32;
var<private> tap_kw: u32;
var<private> step_ic: u32;  // K_STEP as (ic, kh, kw) digits
var<private> step_kh: u32;
var<private> step_kw: u32;

fn epilogue(acc: f32, m: u32, n: u32) -> f32 {
  return conv_epilogue(acc, m);
}

// Output channel m at pixel n, NCHW.
fn out_index(z: u32, m: u32, n: u32) -> u32 {
  let plane = params.OH * params.OW;
  return (n / plane * params.OC + m) * plane + n % plane;
}

// W[m][k..k + 3], zeros past the slice's end (or past K).
fn load_a(z: u32, m: u32, k: u32, end: u32) -> vec4<f32> {
  if (m >= params.M || k >= end) {
    return vec4<f32>();
  }
  let i = m * params.K + k;
  if (WEIGHT_VEC4) {  // K % 4 == 0: the quad is one aligned vec4
    return weight[i / 4u];
  }
  return vec4<f32>(weight_at(i), select(0.0, weight_at(i + 1u), k + 1u < end),
                   select(0.0, weight_at(i + 2u), k + 2u < end),
                   select(0.0, weight_at(i + 3u), k + 3u < end));
}

// One weight of the vec4 binding (K % 4 != 0 only; a runtime component index, off the
// common path).
fn weight_at(i: u32) -> f32 {
  return weight[i / 4u][i % 4u];
}

// im2col(input)[r][c..c + 3]: the thread's four pixels at row r's channel and tap; zero
// for padding, pixels past OH * OW and rows past the slice's end.
fn load_b(z: u32, r: u32, c: u32, end: u32) -> vec4<f32> {
  if (r >= end) {
    return vec4<f32>();
  }
  if (r != next_k) {  // the slice's first row
    let taps = params.KH * params.KW;
    tap_ic = r / taps;
    tap_kh = r % taps / params.KW;
    tap_kw = r % params.KW;
  }
  let v = load_quad(window_at(pixels, i32(tap_kh * params.dH), i32(tap_kw * params.dW)),
                    tap_ic);
  next_k = r + K_STEP;
  tap_kw += step_kw;
  tap_kh += step_kh;
  tap_ic += step_ic;
  if (tap_kw >= params.KW) {
    tap_kw -= params.KW;
    tap_kh++;
  }
  if (tap_kh >= params.KH) {  // step_kh < KH: one wrap at most
    tap_kh -= params.KH;
    tap_ic++;
  }
  return v;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let tid = lid.y * 16u + lid.x;
  pixels = pixel_quad(wid.x * TILE + tid % 32u * 4u);
  let taps = params.KH * params.KW;
  step_ic = K_STEP / taps;
  step_kh = K_STEP % taps / params.KW;
  step_kw = K_STEP % params.KW;
  next_k = 0xffffffffu;
  gemm_tile(lid, wid);
}
)wgsl";

inline constexpr uint32_t kConv2dGemm128WorkgroupSizeX = 16;
inline constexpr uint32_t kConv2dGemm128WorkgroupSizeY = 16;
inline constexpr uint32_t kConv2dGemm128WorkgroupSizeZ = 1;
// Created without the implementation's shader runtime checks (Kernel(runtime_checks=False)).
inline constexpr bool kConv2dGemm128RuntimeChecks = false;
