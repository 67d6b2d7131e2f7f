// store for the cumsum kernels whose output is float32 or int32 words: the bits as they are.
fn store(i: u32, bits: u32) {
  output[i] = bits;
}
