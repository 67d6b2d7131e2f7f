// q8ta_map: q8ta_relu (ADD false: relu of the dequantized a) and q8ta_add (ADD true:
// a + alpha * b), requantized with the output's parameters; one word (4 elements) per
// invocation, elements past the end written as 0.

fn write_word(w: u32) {
  let qa = unpack_int8(a[w]);
  let qb = unpack_int8(b[w]);
  var q = vec4<i32>(0);
  for (var j = 0u; j < 4u; j++) {
    if (4u * w + j < params.num_elements) {
      var y = dequantize(qa[j], params.a_scale, params.a_zero_point);
      if (ADD) {
        y += params.alpha * dequantize(qb[j], params.b_scale, params.b_zero_point);
      } else {
        y = max(y, 0.0);
      }
      q[j] = quantize(y, params.out_inv_scale, params.out_zero_point, -128, 127);
    }
  }
  output[w] = pack_int8(q);
}
