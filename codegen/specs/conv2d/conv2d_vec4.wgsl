// conv2d_vec4: direct conv with input channels per group % 4 == 0; one thread per
// output element gathers four input channels (and their weights) into vec4s and
// combines them with dot().

fn write_output(i: u32, o: OutputElement) {
  let plane = params.IH * params.IW;
  let taps = params.KH * params.KW;

  var acc = 0.0;
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
      var x_at = ((o.b * params.IC + o.ic0) * params.IH + u32(ih)) * params.IW + u32(iw);
      var w_at = (o.oc * o.icpg * params.KH + kh) * params.KW + kw;
      for (var c = 0u; c < o.icpg; c += 4u) {
        let x = vec4<f32>(input_load(x_at), input_load(x_at + plane),
                          input_load(x_at + 2u * plane), input_load(x_at + 3u * plane));
        let w = vec4<f32>(weight_load(w_at), weight_load(w_at + taps),
                          weight_load(w_at + 2u * taps), weight_load(w_at + 3u * taps));
        acc += dot(x, w);
        x_at += 4u * plane;
        w_at += 4u * taps;
      }
    }
  }
  output_store(i, conv_epilogue(acc, o.oc));
}
