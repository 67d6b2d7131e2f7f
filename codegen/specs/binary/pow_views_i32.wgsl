// The loads and stores of binary_map.wgsl for pow's float base and output bound with
// view="vec4" (float32, or float16 on the kernel's twins) and its int32 exponent as
// words, converted to f32 as torch promotes it.

fn load_lhs(i: u32) -> vec4<f32> {
  return lhs_load(i);
}

fn load_rhs(i: u32) -> vec4<f32> {
  return vec4<f32>(rhs[i]);
}

fn store_out(i: u32, v: vec4<f32>) {
  output_store(i, v);
}
