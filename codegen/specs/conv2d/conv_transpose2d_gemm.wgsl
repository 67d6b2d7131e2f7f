// conv_transpose2d_gemm: a transposed conv (groups == 1, dilation 1) as one implicit GEMM
// per output phase (workgroup z = a * sW + c). The output pixels with oh % sH == a and
// ow % sW == c are reached only by the taps kh = rh + j * sH, kw = rw + i * sW (rh =
// (a + pH) % sH, rw = (c + pW) % sW), and tap (j, i) adds input pixel (t + qh - j,
// u + qw - i) to the phase's pixel (t, u) = ((oh - a) / sH, (ow - c) / sW), where
// qh = (a + pH) / sH, qw = (c + pW) / sW. So each phase is a dense direct conv:
//   out[b, oc, a + t * sH, c + u * sW] = sum over the phase's taps (j, i) and channels ic of
//       wpack[kh * KW + kw][ic][oc] * input[b, ic, t + qh - j, u + qw - i]
// a GEMM of OC x (B * the phase's pixels) x (IC * its taps). Tiles and the walk over K
// are conv2d_gemm's: 16x16 workgroups computing 64 (channels) x 64 (pixels), 4x4 per
// thread, K steps of 16 input channels at one tap, double-buffered; the weights come
// tap-major from conv2d_pack_weights (TRANSPOSED).

// The geometry of output phase z.
struct Phase {
  a: u32,  // oh = a + t * sH
  c: u32,  // ow = c + u * sW
  rows: u32,  // phase rows t
  cols: u32,  // phase columns u
  qh: u32,  // input row of phase row 0 at tap row j = 0
  qw: u32,
  rh: u32,  // the kernel row of tap row j = 0
  rw: u32,
  taps_w: u32,  // tap columns
  taps: u32,  // taps in all (0 where the kernel misses the phase: bias only)
}

fn phase(z: u32) -> Phase {
  let a = z / params.sW;
  let c = z % params.sW;
  let rh = (a + params.pH) % params.sH;
  let rw = (c + params.pW) % params.sW;
  let taps_w = (params.KW + params.sW - 1u - rw) / params.sW;
  return Phase(a, c, (params.OH + params.sH - 1u - a) / params.sH,
               (params.OW + params.sW - 1u - c) / params.sW, (a + params.pH) / params.sH,
               (c + params.pW) / params.sW, rh, rw, taps_w,
               (params.KH + params.sH - 1u - rh) / params.sH * taps_w);
}

// The phase's pixels n0..n0 + 3 (n = (b * rows + t) * cols + u) as a loader sees them.
fn phase_quad(ph: Phase, n0: u32) -> PixelQuad {
  let plane = ph.rows * ph.cols;
  let n = vec4<u32>(n0) + vec4<u32>(0u, 1u, 2u, 3u);
  let pix = n % vec4<u32>(plane);
  return PixelQuad(vec4<i32>(pix / vec4<u32>(ph.cols) + vec4<u32>(ph.qh)),
                   vec4<i32>(pix % vec4<u32>(ph.cols) + vec4<u32>(ph.qw)),
                   n / vec4<u32>(plane) * (params.IC * params.IH * params.IW),
                   n < vec4<u32>(params.B * plane));
}

// The phase's tap `tap` (row-major over its taps): the packed weights' tap index and the
// quad's input window.
struct PhaseTap {
  weights: u32,
  window: TapWindow,
}

fn phase_tap(ph: Phase, q: PixelQuad, tap: u32) -> PhaseTap {
  let j = tap / max(ph.taps_w, 1u);
  let i = tap % max(ph.taps_w, 1u);
  return PhaseTap((ph.rh + j * params.sH) * params.KW + ph.rw + i * params.sW,
                  window_at(q, -i32(j), -i32(i)));
}

// The output offsets (in channel 0) of the phase's pixels n0..n0 + 3, and which exist.
struct OutQuad {
  at: vec4<u32>,
  ok: vec4<bool>,
}

fn out_quad(ph: Phase, n0: u32) -> OutQuad {
  let plane = ph.rows * ph.cols;
  let n = vec4<u32>(n0) + vec4<u32>(0u, 1u, 2u, 3u);
  let pix = n % vec4<u32>(plane);
  let oh = vec4<u32>(ph.a) + pix / vec4<u32>(ph.cols) * params.sH;
  let ow = vec4<u32>(ph.c) + pix % vec4<u32>(ph.cols) * params.sW;
  return OutQuad(n / vec4<u32>(plane) * (params.OC * params.OH * params.OW) + oh * params.OW + ow,
                 n < vec4<u32>(params.B * plane));
}

// Output channel m at the quad's pixels, through the epilogue.
fn store_out(m: u32, o: OutQuad, v: vec4<f32>) {
  if (m >= params.OC) {
    return;
  }
  let at = o.at + vec4<u32>(m * params.OH * params.OW);
  if (o.ok.x) {
    output_store(at.x, conv_epilogue(v.x, m));
  }
  if (o.ok.y) {
    output_store(at.y, conv_epilogue(v.y, m));
  }
  if (o.ok.z) {
    output_store(at.z, conv_epilogue(v.z, m));
  }
  if (o.ok.w) {
    output_store(at.w, conv_epilogue(v.w, m));
  }
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let ph = phase(wid.z);
  // the grid covers the largest phase; a workgroup past this phase's pixels has no work
  // (uniform: it depends on the workgroup id and params only)
  if (wid.x * BN >= params.B * ph.rows * ph.cols) {
    return;
  }
  let tid = lid.y * WORKGROUP_SIZE_X + lid.x;
  // Loader role, the same in both tiles: row ld_k (BK rows), vec4 column ld_c.
  let ld_k = tid / ROW4;
  let ld_c = tid % ROW4;
  let a_col = wid.y * (BM / 4u) + ld_c;
  let quad = phase_quad(ph, wid.x * BN + 4u * ld_c);

  let steps = ph.taps * ((params.IC + BK - 1u) / BK);
  var tap = 0u;
  var c0 = 0u;
  var at = phase_tap(ph, quad, tap);
  if (steps > 0u) {
    a_tile[tid] = load_weights(at.weights, ld_k, a_col);
    b_tile[tid] = load_quad(at.window, ld_k);
  }
  workgroupBarrier();
  var acc0 = vec4<f32>();  // output channel 4 * lid.y + r in acc<r>, pixels 4 * lid.x + 0..3
  var acc1 = vec4<f32>();
  var acc2 = vec4<f32>();
  var acc3 = vec4<f32>();
  var buffer = 0u;
  for (var s = 0u; s < steps; s++) {
    // the next step's entries, loaded while this step computes
    c0 += BK;
    if (c0 >= params.IC) {
      c0 = 0u;
      tap++;
      at = phase_tap(ph, quad, tap);
    }
    let more = s + 1u < steps;
    var a = vec4<f32>();
    var b = vec4<f32>();
    if (more) {
      a = load_weights(at.weights, c0 + ld_k, a_col);
      b = load_quad(at.window, c0 + ld_k);
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
  let o = out_quad(ph, wid.x * BN + 4u * lid.x);
  store_out(m, o, acc0);
  store_out(m + 1u, o, acc1);
  store_out(m + 2u, o, acc2);
  store_out(m + 3u, o, acc3);
}
