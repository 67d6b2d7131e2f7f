// quantize_per_tensor: float32 -> int8, one output word (4 elements) per invocation;
// elements past the end are written as 0.

fn write_word(w: u32) {
  let x = input[w];
  var q = vec4<i32>(0);
  for (var j = 0u; j < 4u; j++) {
    if (4u * w + j < params.num_elements) {
      q[j] = quantize(x[j], params.inv_scale, params.zero_point, params.quant_min,
                      params.quant_max);
    }
  }
  output[w] = pack_int8(q);
}
