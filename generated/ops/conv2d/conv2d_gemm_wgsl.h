// @generated from codegen/specs/conv2d/conv2d_gemm.wgsl - DO NOT EDIT.
// wgsl-sha256: c318bd41791a7a4398f788bae73a5322018ec7d8c990f2a4c9d5f6fffd134b9f
#pragma once

#include <cstdint>

inline constexpr const char* kConv2dGemmWGSL =
    R"wgsl(// conv2d_gemm: direct conv (groups == 1) as an implicit-im2col GEMM over the tap-major
// weights of conv2d_pack_weights:
//   out[oc, n] = sum over taps (kh, kw) and channels ic of
//                wpack[tap][ic][oc] * input[b, ic, oh * sH - pH + kh * dH, ow * sW - pW + kw * dW]
// Each 16x16 workgroup computes a 64 (channels) x 64 (pixels) tile, 4x4 per thread, from
// vec4 tiles in workgroup memory, over the K steps of its split-K slice (workgroup z),
// loading a step's tiles into registers while the step before computes. The walk over K
// is in conv_gemm.wgsl.

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
// Shared helpers (conv_gemm.wgsl).
// Shared by the direct conv's GEMM kernels (emitted into their declaration blocks by opgen,
// after conv_gemm_loads.wgsl): the tap-major walk over K and the split-K store. K step s
// is tap s / steps_per_tap and input channels from (s % steps_per_tap) * bk (the kernel's
// step); a step's im2col rows are channel planes shifted by one tap, so a loader finds its
// pixels' input offsets once per tap and then only adds a plane stride.

// A quad's window at one tap.
fn tap_window(q: PixelQuad, tap: u32) -> TapWindow {
  return window_at(q, i32(tap / params.KW * params.dH), i32(tap % params.KW * params.dW));
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
      output[i] = conv_epilogue(v[c], m);
    } else {
      partial[slice * N * params.OC + i] = v[c];
    }
  }
}
// @opgen-end declarations

const BM: u32 = 64u;  // output channels per tile
const BN: u32 = 64u;  // output pixels per tile
const BK: u32 = 16u;  // input channels per K step
const ROW4: u32 = 16u;  // vec4s per tile row (BM / 4 == BN / 4)

const TILE: u32 = 256u;  // vec4s per tile (BK * ROW4)

// Two buffers of each tile: a step computes from one while the next step's entries are
// stored into the other, so one barrier per step suffices.
var<workgroup> a_tile: array<vec4<f32>, 512>;  // [buffer][k][m / 4]: 4 output channels per vec4
var<workgroup> b_tile: array<vec4<f32>, 512>;  // [buffer][k][n / 4]: 4 output pixels per vec4

// This thread's outputs: output channel 4 * y + r in acc<r>, pixels 4 * x + 0..3 (named
// vectors, kept in registers).
var<private> acc0: vec4<f32>;
var<private> acc1: vec4<f32>;
var<private> acc2: vec4<f32>;
var<private> acc3: vec4<f32>;

// One k of the staged tiles (`row`: its first vec4) added into thread (x, y)'s outputs.
fn multiply_k(row: u32, x: u32, y: u32) {
  let av = a_tile[row + y];
  let bv = b_tile[row + x];
  acc0 += av.x * bv;
  acc1 += av.y * bv;
  acc2 += av.z * bv;
  acc3 += av.w * bv;
}

// Where a loader is in the walk over K: the tap, its first input channel and its window.
struct Walk {
  tap: u32,
  c0: u32,
  window: TapWindow,
}

fn next_step(w: Walk, quad: PixelQuad) -> Walk {
  if (w.c0 + BK < params.IC) {
    return Walk(w.tap, w.c0 + BK, w.window);
  }
  return Walk(w.tap + 1u, 0u, tap_window(quad, w.tap + 1u));
}

// As in the matmul spec's gemm_tile, the step is written out as BK calls of multiply_k (the
// driver does not unroll the loop), and the loads of the step after next are issued right
// after the barrier, where the driver cannot sink them below the FMAs.
@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let tid = lid.y * WORKGROUP_SIZE_X + lid.x;
  // Loader role, the same in both tiles: row ld_k (BK rows), vec4 column ld_c.
  let ld_k = tid / ROW4;
  let ld_c = tid % ROW4;
  let a_col = wid.y * (BM / 4u) + ld_c;
  let quad = pixel_quad(wid.x * BN + 4u * ld_c);

  let per_tap = (params.IC + BK - 1u) / BK;
  let steps = slice_steps(wid.z, BK);
  let first = steps.x / per_tap;
  var walk = Walk(first, steps.x % per_tap * BK, tap_window(quad, first));
  if (steps.x < steps.y) {
    a_tile[tid] = load_weights(walk.tap, walk.c0 + ld_k, a_col);
    b_tile[tid] = load_quad(walk.window, walk.c0 + ld_k);
  }
  // the next step's entries (zeros past the slice's last step)
  var a = vec4<f32>();
  var b = vec4<f32>();
  walk = next_step(walk, quad);
  if (steps.x + 1u < steps.y) {
    a = load_weights(walk.tap, walk.c0 + ld_k, a_col);
    b = load_quad(walk.window, walk.c0 + ld_k);
  }
  workgroupBarrier();
  var buffer = 0u;
  for (var s = steps.x; s < steps.y; s++) {
    multiply_k(buffer, lid.x, lid.y);
    multiply_k(buffer + ROW4, lid.x, lid.y);
    multiply_k(buffer + 2u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 3u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 4u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 5u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 6u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 7u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 8u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 9u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 10u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 11u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 12u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 13u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 14u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 15u * ROW4, lid.x, lid.y);
    buffer = TILE - buffer;
    a_tile[buffer + tid] = a;
    b_tile[buffer + tid] = b;
    workgroupBarrier();
    if (s + 2u < steps.y) {
      walk = next_step(walk, quad);
      a = load_weights(walk.tap, walk.c0 + ld_k, a_col);
      b = load_quad(walk.window, walk.c0 + ld_k);
    }
  }

  let m = wid.y * BM + 4u * lid.y;
  let n0 = wid.x * BN + 4u * lid.x;
  store_quad(m, n0, acc0, wid.z);
  store_quad(m + 1u, n0, acc1, wid.z);
  store_quad(m + 2u, n0, acc2, wid.z);
  store_quad(m + 3u, n0, acc3, wid.z);
}
)wgsl";

inline constexpr uint32_t kConv2dGemmWorkgroupSizeX = 16;
inline constexpr uint32_t kConv2dGemmWorkgroupSizeY = 16;
inline constexpr uint32_t kConv2dGemmWorkgroupSizeZ = 1;
