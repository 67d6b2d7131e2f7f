// The loads and stores of binary_map.wgsl for float tensors bound with view="vec4":
// computed in vec4<f32> whatever the kernel's float storage.

fn load_lhs(i: u32) -> vec4<f32> {
  return lhs_load(i);
}

fn load_rhs(i: u32) -> vec4<f32> {
  return rhs_load(i);
}

fn store_out(i: u32, v: vec4<f32>) {
  output_store(i, v);
}
