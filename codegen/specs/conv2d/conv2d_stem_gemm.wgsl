// conv2d_stem_gemm: direct conv (groups == 1) with few input channels (RGB stems, patch
// embeds) as an implicit-im2col GEMM whose K is the flattened KH * KW * IC, unpadded:
//   out[oc, n] = sum over k < KH * KW * IC of wpack[k][oc] * im2col[k][n]
// with k = (kh * KW + kw) * IC + ic, the row order conv2d_pack_weights writes. conv2d_gemm
// pads each tap to 16 input channels, so 3 channels filled 3 of 16 K lanes; here a K step
// is 16 consecutive k, across taps. Same tiling as conv2d_gemm: 16x16 threads, a 64
// (channels) x 64 (pixels) tile, 4x4 per thread, double-buffered vec4 tiles, split K.
// Each loader owns one k row per step and walks it by 16 with a mixed-radix add
// (ic, kw, kh digits; no division in the loop). PADDED is false when padding is 0 (patch
// embeds and most unpadded stems): every tap of a real pixel is then inside the image, so
// the only checks left are the pixel and k ranges.

// One loader's k row as digits: k = (kh * KW + kw) * IC + ic; kh >= KH past the end of K.
struct KRow {
  k: u32,
  ic: u32,
  kw: u32,
  kh: u32,
}

fn k_row(k: u32) -> KRow {
  let tap = k / params.IC;
  return KRow(k, k % params.IC, tap % params.KW, tap / params.KW);
}

// The row BK further on: add BK's digits (step.x = ic, step.y = kw, step.z = kh) with
// carries; each digit stays below twice its radix, so one subtraction carries it.
fn advance(r: KRow, step: vec3<u32>) -> KRow {
  var ic = r.ic + step.x;
  let c0 = ic >= params.IC;
  ic = select(ic, ic - params.IC, c0);
  var kw = r.kw + step.y + u32(c0);
  let c1 = kw >= params.KW;
  kw = select(kw, kw - params.KW, c1);
  return KRow(r.k + BK, ic, kw, r.kh + step.z + u32(c1));
}

// The K steps [x, y) of split-K slice `slice` (BK k each, the last one partial).
fn flat_slice_steps(slice: u32) -> vec2<u32> {
  let total = (params.KH * params.KW * params.IC + BK - 1u) / BK;
  return vec2<u32>(slice * total / params.split, (slice + 1u) * total / params.split);
}

// Output channels 4 * col..4 * col + 3 at row k (0 past K or OC).
fn load_weight_row(r: KRow, col: u32) -> vec4<f32> {
  let M4 = (params.OC + 3u) / 4u;
  if (r.kh >= params.KH || col >= M4) {
    return vec4<f32>();
  }
  return wpack_load(r.k * M4 + col);
}

// The quad's input offsets at k = 0 (ic = kh = kw = 0; wrapping where that lies in the
// padding), so that a row adds one offset for all four pixels.
fn quad_origin(q: PixelQuad) -> vec4<u32> {
  return q.image + vec4<u32>(q.ih0 * i32(params.IW) + q.iw0);
}

// The quad's four pixels at row k: input[b, ic, ih0 + kh * dH, iw0 + kw * dW] (0 outside).
fn load_row(q: PixelQuad, origin: vec4<u32>, r: KRow) -> vec4<f32> {
  let dh = i32(r.kh * params.dH);
  let dw = i32(r.kw * params.dW);
  var ok = q.inside & vec4<bool>(r.kh < params.KH);
  if (PADDED) {
    let ih = q.ih0 + dh;
    let iw = q.iw0 + dw;
    ok = ok & (ih >= vec4<i32>(0)) & (ih < vec4<i32>(i32(params.IH))) &
         (iw >= vec4<i32>(0)) & (iw < vec4<i32>(i32(params.IW)));
  }
  let offset = (r.ic * params.IH + r.kh * params.dH) * params.IW + r.kw * params.dW;
  let o = select(vec4<u32>(0u), origin + vec4<u32>(offset), ok);
  return select(vec4<f32>(), vec4<f32>(input_load(o.x), input_load(o.y), input_load(o.z),
                                       input_load(o.w)), ok);
}

// Where a thread's four pixels n0..n0 + 3 land in output channel 0 (channel m adds m * plane),
// and which exist: found once for the thread's four channels (this kernel's few K steps
// make the store a visible share of its time, so no per-element division).
struct PixelOut {
  at: vec4<u32>,
  ok: vec4<bool>,
}

fn pixel_out(n0: u32) -> PixelOut {
  let plane = params.OH * params.OW;
  let n = vec4<u32>(n0) + vec4<u32>(0u, 1u, 2u, 3u);
  return PixelOut(n / vec4<u32>(plane) * (params.OC * plane) + n % vec4<u32>(plane),
                  n < vec4<u32>(params.B * plane));
}

// Output channel m at the four pixels: through the epilogue into the output or, with K
// split, this slice's raw sums into its partial plane (conv2d_split_sum adds them up).
fn store_row(p: PixelOut, m: u32, v: vec4<f32>, slice: u32) {
  if (m >= params.OC) {
    return;
  }
  let at = p.at + vec4<u32>(m * params.OH * params.OW);
  let base = slice * params.B * params.OC * params.OH * params.OW;
  store_value(at.x + base, p.ok.x, m, v.x);
  store_value(at.y + base, p.ok.y, m, v.y);
  store_value(at.z + base, p.ok.z, m, v.z);
  store_value(at.w + base, p.ok.w, m, v.w);
}

// (with split == 1 the only slice is 0, so i is the output index)
fn store_value(i: u32, ok: bool, m: u32, v: f32) {
  if (!ok) {
    return;
  }
  if (params.split == 1u) {
    output_store(i, conv_epilogue(v, m));
  } else {
    partial[i] = v;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let tid = lid.y * WORKGROUP_SIZE_X + lid.x;
  // Loader role, the same in both tiles: row ld_k of the step, vec4 column ld_c.
  let ld_k = tid / ROW4;
  let ld_c = tid % ROW4;
  let a_col = wid.y * (BM / 4u) + ld_c;
  let quad = pixel_quad(wid.x * BN + 4u * ld_c);
  let origin = quad_origin(quad);
  // BK as digits of the (IC, KW, unbounded KH) radix
  let step = vec3<u32>(BK % params.IC, BK / params.IC % params.KW, BK / params.IC / params.KW);

  let steps = flat_slice_steps(wid.z);
  var row = k_row(steps.x * BK + ld_k);
  if (steps.x < steps.y) {
    a_tile[tid] = load_weight_row(row, a_col);
    b_tile[tid] = load_row(quad, origin, row);
  }
  workgroupBarrier();
  var acc0 = vec4<f32>();  // output channel 4 * lid.y + r in acc<r>, pixels 4 * lid.x + 0..3
  var acc1 = vec4<f32>();
  var acc2 = vec4<f32>();
  var acc3 = vec4<f32>();
  var buffer = 0u;
  for (var s = steps.x; s < steps.y; s++) {
    // the next step's entries, loaded while this step computes
    row = advance(row, step);
    let more = s + 1u < steps.y;
    var a = vec4<f32>();
    var b = vec4<f32>();
    if (more) {
      a = load_weight_row(row, a_col);
      b = load_row(quad, origin, row);
    }
    for (var k = 0u; k < BK; k++) {
      let av = a_tile[buffer + k * ROW4 + lid.y];
      let bv = b_tile[buffer + k * ROW4 + lid.x];
      acc0 += av.x * bv;
      acc1 += av.y * bv;
      acc2 += av.z * bv;
      acc3 += av.w * bv;
    }
    buffer = TILE - buffer;
    if (more) {
      a_tile[buffer + tid] = a;
      b_tile[buffer + tid] = b;
    }
    workgroupBarrier();
  }

  let m = wid.y * BM + 4u * lid.y;
  let out = pixel_out(wid.x * BN + 4u * lid.x);
  store_row(out, m, acc0, wid.z);
  store_row(out, m + 1u, acc1, wid.z);
  store_row(out, m + 2u, acc2, wid.z);
  store_row(out, m + 3u, acc3, wid.z);
}
