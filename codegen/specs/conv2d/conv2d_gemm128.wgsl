// conv2d_gemm128: direct conv (groups == 1) on the matmul spec's 128x128 tile
// (gemm_tile.wgsl), one GEMM over every image's pixels (n = (b * OH + oh) * OW + ow):
//   out (OC x B * OH * OW) = weight (OC x K, its own row-major layout, read in place)
//                            @ im2col(input) (K x B * OH * OW)
// with K = IC * KH * KW and im2col row k = (ic * KH + kh) * KW + kw. Pixel tiles cross
// images (B8 14x14: 13 tiles of 128 for 1568 pixels, where a GEMM per image would pad
// each image's 196 to 256); out_index writes NCHW, and the split-K partials the same way,
// as conv2d_split_sum reads them.

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
    return weight_load(i / 4u);
  }
  return vec4<f32>(weight_at(i), select(0.0, weight_at(i + 1u), k + 1u < end),
                   select(0.0, weight_at(i + 2u), k + 2u < end),
                   select(0.0, weight_at(i + 3u), k + 3u < end));
}

// One weight of the vec4 binding (K % 4 != 0 only; a runtime component index, off the
// common path).
fn weight_at(i: u32) -> f32 {
  return weight_load(i / 4u)[i % 4u];
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
  pixels = pixel_quad(wid.x * TILE_N + tid % 32u * 4u);
  let taps = params.KH * params.KW;
  step_ic = K_STEP / taps;
  step_kh = K_STEP % taps / params.KW;
  step_kw = K_STEP % params.KW;
  next_k = 0xffffffffu;
  gemm_tile(lid, wid);
}
