// q8ta_conv2d (direct, pointwise, depthwise and transposed): one invocation per output word
// (4 consecutive outputs of [B, OC, OH, OW]), each an exact int32 sum over its taps and
// input channels, then the float32 epilogue. Padding taps contribute nothing (the
// dequantized input is 0 there), so they are skipped, never read as the zero point.

fn write_word(w: u32) {
  var q = vec4<i32>(0);
  for (var j = 0u; j < 4u; j++) {
    let e = 4u * w + j;
    if (e < params.num_elements) {
      let ow = e % params.OW;
      let oh = (e / params.OW) % params.OH;
      let oc = (e / (params.OW * params.OH)) % params.OC;
      let b = e / (params.OW * params.OH * params.OC);
      q[j] = conv_output(conv_sum(b, oc, oh, ow), oc);
    }
  }
  output[w] = pack_int8(q);
}

// The input coordinate that tap k of output coordinate o reads along one axis, or -1 when
// it reads padding (direct: o * s - p + k * d; transposed: the i with i * s == o + p - k * d).
fn source(o: u32, k: u32, s: u32, p: u32, d: u32, size: u32) -> i32 {
  var i: i32;
  if (params.transposed != 0u) {
    let t = i32(o + p) - i32(k * d);
    if (t < 0 || t % i32(s) != 0) {
      return -1;
    }
    i = t / i32(s);
  } else {
    i = i32(o * s + k * d) - i32(p);
  }
  return select(-1, i, i >= 0 && i < i32(size));
}

fn conv_sum(b: u32, oc: u32, oh: u32, ow: u32) -> i32 {
  let first_ic = (oc / params.ocpg) * params.icpg;
  var acc = 0;
  for (var kh = 0u; kh < params.KH; kh++) {
    let ih = source(oh, kh, params.sH, params.pH, params.dH, params.IH);
    if (ih < 0) {
      continue;
    }
    for (var kw = 0u; kw < params.KW; kw++) {
      let iw = source(ow, kw, params.sW, params.pW, params.dW, params.IW);
      if (iw < 0) {
        continue;
      }
      let tap = kh * params.KW + kw;
      for (var i = 0u; i < params.icpg; i++) {
        let xi = ((b * params.IC + first_ic + i) * params.IH + u32(ih)) * params.IW + u32(iw);
        let wi = oc * params.oc_stride + (tap * params.icpg + i) * params.tap_stride;
        let a = int8_of(x[xi / 4u], xi % 4u) - params.input_zero_point;
        acc += a * int8_of(weights[wi / 4u], wi % 4u);
      }
    }
  }
  return acc;
}

// The sum to float32, scaled by input_scale and the channel's weight scale, biased,
// relu'd and quantized to the output's int8.
fn conv_output(acc: i32, oc: u32) -> i32 {
  var y = f32(acc) * (params.input_scale * weight_scales[oc % params.scale_period]);
  if (params.has_bias != 0u) {
    y += bias[oc];
  }
  if (params.relu != 0u) {
    y = max(y, 0.0);
  }
  return quantize(y, params.output_inv_scale, params.output_zero_point, -128, 127);
}
