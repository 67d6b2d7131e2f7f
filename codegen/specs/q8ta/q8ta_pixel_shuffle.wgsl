// q8ta_pixel_shuffle: out[..., c, h * r + i, w * r + j] = in[..., c * r * r + i * r + j, h, w],
// requantized from the input's parameters to the output's; one output word (4 elements)
// per invocation, each gathered from its own input byte.

fn write_word(w: u32) {
  let r = params.r;
  let OW = params.W * r;
  let OH = params.H * r;
  var q = vec4<i32>(0);
  for (var j = 0u; j < 4u; j++) {
    let e = 4u * w + j;
    if (e < params.num_elements) {
      let ow = e % OW;
      let oh = (e / OW) % OH;
      let plane = e / (OW * OH);  // batch * C + c
      let ic = plane * r * r + (oh % r) * r + ow % r;
      let src = (ic * params.H + oh / r) * params.W + ow / r;
      let x = dequantize(int8_of(input[src / 4u], src % 4u), params.in_scale,
                         params.in_zero_point);
      q[j] = quantize(x, params.out_inv_scale, params.out_zero_point, -128, 127);
    }
  }
  output[w] = pack_int8(q);
}
