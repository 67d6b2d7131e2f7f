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
