// store for the cumsum kernels' float16 twins: the f32 sum through the output's view
// accessor, which rounds it to half once (generated from the kernel's float storage).
fn store(i: u32, bits: u32) {
  output_store(i, bitcast<f32>(bits));
}
