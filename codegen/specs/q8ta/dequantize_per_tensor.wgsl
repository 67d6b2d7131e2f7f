// dequantize_per_tensor: int8 -> float32, one input word (4 elements) per invocation,
// written as one vec4 (the output buffer is whole 16-byte units).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (w >= params.num_words) {
    return;
  }
  let q = unpack_int8(input[w]);
  var x: vec4<f32>;
  for (var j = 0u; j < 4u; j++) {
    x[j] = dequantize(q[j], params.scale, params.zero_point);
  }
  output[w] = x;
}
