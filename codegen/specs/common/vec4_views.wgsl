// The vec4 loads and stores of map_vec4s.wgsl for float tensors bound with view="vec4":
// computed in vec4<f32> whatever the kernel's float storage.

fn load_vec4(i: u32) -> vec4<f32> {
  return input_load(i);
}

fn store_vec4(i: u32, v: vec4<f32>) {
  output_store(i, v);
}
