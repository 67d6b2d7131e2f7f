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
  return select(vec4<f32>(), vec4<f32>(input_load(o.x), input_load(o.y), input_load(o.z),
                                       input_load(o.w)), w.ok);
}

// Output channels 4 * col..4 * col + 3 of input channel ic at one tap (0 past IC or OC).
fn load_weights(tap: u32, ic: u32, col: u32) -> vec4<f32> {
  let M4 = (params.OC + 3u) / 4u;
  if (ic >= params.IC || col >= M4) {
    return vec4<f32>();
  }
  return wpack_load((tap * params.IC + ic) * M4 + col);
}

