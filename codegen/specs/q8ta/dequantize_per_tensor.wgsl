// dequantize_per_tensor: int8 -> float32, one input word (4 elements) per invocation,
// written as one vec4 (the output buffer is whole 16-byte units).

fn write_word(w: u32) {
  let q = unpack_int8(input[w]);
  var x: vec4<f32>;
  for (var j = 0u; j < 4u; j++) {
    x[j] = dequantize(q[j], params.scale, params.zero_point);
  }
  output[w] = x;
}
