// linear_q8ta_q8csw: a linear on an int8 input x_q (quantized per tensor: input_scale,
// input_zero_point) and int8 weights w_q [N, K] (symmetric per channel: weight_scales):
//   out[m, n] = input_scale * weight_scales[n] * sum_k (x_q[m, k] - zp) * w_q[n, k] + bias[n]
// The sum is integer: sum_k x_q * w_q in i32, less zp * weight_sums[n] (the row sums of
// w_q that the lowering stores), exact. One invocation per output element.

// the int8 at byte i of a u32-word binding, sign-extended
fn int8_at(word: u32, i: u32) -> i32 {
  return bitcast<i32>(word << (24u - 8u * (i % 4u))) >> 24u;
}

fn write_element(e: u32) {
  let m = e / params.N;
  let n = e % params.N;
  let xs = m * params.K;
  let ws = n * params.K;
  var acc = 0i;
  for (var k = 0u; k < params.K; k++) {
    let x = int8_at(input[(xs + k) / 4u], xs + k);
    let w = int8_at(weight[(ws + k) / 4u], ws + k);
    acc += x * w;
  }
  acc -= params.input_zero_point * weight_sums[n];
  var value = f32(acc) * params.input_scale * weight_scales[n];
  if (params.has_bias != 0u) {
    value += bias[n];
  }
  output[e] = value;
}
