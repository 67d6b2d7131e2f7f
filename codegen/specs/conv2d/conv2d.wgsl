// conv2d: the general direct conv (any groups, e.g. depthwise or a grouped RGB stem);
// one thread per output element.

fn write_output(i: u32, o: OutputElement) {

  var acc = 0.0;
  for (var c = 0u; c < o.icpg; c++) {
    for (var kh = 0u; kh < params.KH; kh++) {
      let ih = i32(o.oh * params.sH + kh * params.dH) - i32(params.pH);
      if (ih < 0 || ih >= i32(params.IH)) {
        continue;
      }
      for (var kw = 0u; kw < params.KW; kw++) {
        let iw = i32(o.ow * params.sW + kw * params.dW) - i32(params.pW);
        if (iw < 0 || iw >= i32(params.IW)) {
          continue;
        }
        let x = input_load(((o.b * params.IC + o.ic0 + c) * params.IH + u32(ih)) * params.IW +
                           u32(iw));
        acc += x * weight_load(((o.oc * o.icpg + c) * params.KH + kh) * params.KW + kw);
      }
    }
  }
  output_store(i, conv_epilogue(acc, o.oc));
}
