// The vec4 loads and stores of map_vec4s.wgsl for the arrays as the spec declares them
// (integer and bit-level kernels): the kernel's alias Vec is their element type.

fn load_vec4(i: u32) -> Vec {
  return input[i];
}

fn store_vec4(i: u32, v: Vec) {
  output[i] = v;
}
