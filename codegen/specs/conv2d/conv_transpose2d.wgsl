// conv_transpose2d: transposed conv in gather form, one thread per output element. Tap
// (kh, kw) reads input row ih = (oh + pH - kh * dH) / sH only when that division is
// exact and in range. Weight layout [IC, OC / groups, KH, KW] (torch's transposed).

// The input coordinate tap k contributes to output coordinate o, or -1 when none.
fn source(o: u32, k: u32, s: u32, p: u32, d: u32, size: u32) -> i32 {
  let num = i32(o + p) - i32(k * d);
  if (num < 0 || num % i32(s) != 0) {
    return -1;
  }
  let at = num / i32(s);
  return select(-1, at, at < i32(size));
}

fn write_output(i: u32, o: OutputElement) {
  let ocg = o.oc % o.ocpg;

  var acc = 0.0;
  for (var kh = 0u; kh < params.KH; kh++) {
    let ih = source(o.oh, kh, params.sH, params.pH, params.dH, params.IH);
    if (ih < 0) {
      continue;
    }
    for (var kw = 0u; kw < params.KW; kw++) {
      let iw = source(o.ow, kw, params.sW, params.pW, params.dW, params.IW);
      if (iw < 0) {
        continue;
      }
      for (var c = 0u; c < o.icpg; c++) {
        let ic = o.ic0 + c;
        let x = input_load(((o.b * params.IC + ic) * params.IH + u32(ih)) * params.IW + u32(iw));
        acc += x * weight_load(((ic * o.ocpg + ocg) * params.KH + kh) * params.KW + kw);
      }
    }
  }
  output_store(i, conv_epilogue(acc, o.oc));
}
