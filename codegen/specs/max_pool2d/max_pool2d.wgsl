// max_pool2d: one thread per output element scans its window (padded cells skipped).
// NaN propagates as in torch (a NaN always wins, the last one's index is kept); the
// argmax is always tracked and `write_indices` gates only its store.

// A large finite negative (Tint rejects -FLT_MAX as a literal); the first cell of the
// window replaces it anyway, so an all -inf window still returns -inf as torch does.
const LOWEST: f32 = -3.4e38;

fn is_nan(v: f32) -> bool {
  return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}

fn write_element(i: u32) {
  let ow = i % params.OW;
  let oh = (i / params.OW) % params.OH;
  let plane = i / (params.OW * params.OH);
  let base = plane * params.IH * params.IW;

  var best = LOWEST;
  var best_index = 0i;
  var found = false;
  for (var kh = 0u; kh < params.kH; kh++) {
    let ih = i32(oh * params.sH + kh * params.dH) - i32(params.pH);
    if (ih < 0 || ih >= i32(params.IH)) {
      continue;
    }
    for (var kw = 0u; kw < params.kW; kw++) {
      let iw = i32(ow * params.sW + kw * params.dW) - i32(params.pW);
      if (iw < 0 || iw >= i32(params.IW)) {
        continue;
      }
      let offset = ih * i32(params.IW) + iw;
      let v = input_load(base + u32(offset));
      if (!found || v > best || is_nan(v)) {
        best = v;
        best_index = offset;
        found = true;
      }
    }
  }
  output_store(i, best);
  if (write_indices) {
    indices[i] = best_index;
  }
}
