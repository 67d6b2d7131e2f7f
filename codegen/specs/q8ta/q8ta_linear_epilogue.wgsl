// The arithmetic the q8ta linear kernels share: an output's exact int32 sum over K
// (4 inputs a word), and its epilogue to int8.

// sum_k (x[m, k] - input_zero_point) * weights[n, k]
fn row_dot(m: u32, n: u32, first_word: u32, word_step: u32) -> i32 {
  let zero_point = vec4<i32>(params.input_zero_point);
  var acc = 0;
  for (var k = first_word; k < params.K_words; k += word_step) {
    let a = unpack_int8(x[m * params.K_words + k]) - zero_point;
    acc += dot(a, unpack_int8(weights[n * params.K_words + k]));
  }
  return acc;
}

// The sum to float32, scaled by input_scale * weight_scales[n], biased, relu'd and
// quantized to the output's int8.
fn linear_output(acc: i32, n: u32) -> i32 {
  var y = f32(acc) * (params.input_scale * weight_scales[n]);
  if (params.has_bias != 0u) {
    y += bias[n];
  }
  if (params.relu != 0u) {
    y = max(y, 0.0);
  }
  return quantize(y, params.output_inv_scale, params.output_zero_point, -128, 127);
}
