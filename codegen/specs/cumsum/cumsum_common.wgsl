// Shared by the cumsum kernels (composed into their modules by opgen; not a
// standalone module). Values travel as the output dtype's bits in a u32: IN_BOOL,
// IN_FLOAT and OUT_FLOAT say what the input and output hold (a bool input is one byte
// per element, four to a word, and counts as 0 or 1).

// input element i converted to the output dtype (float -> int truncates, as torch)
fn load(i: u32) -> u32 {
  if (IN_BOOL) {
    let count = (input[i / 4u] >> (8u * (i % 4u))) & 0xffu;
    return select(count, bitcast<u32>(f32(count)), OUT_FLOAT);
  }
  let bits = input[i];
  if (IN_FLOAT == OUT_FLOAT) {
    return bits;
  }
  if (OUT_FLOAT) {
    return bitcast<u32>(f32(bitcast<i32>(bits)));
  }
  return bitcast<u32>(i32(bitcast<f32>(bits)));
}

// a + b in the output dtype (u32 addition is the wrapping i32 sum); 0u is zero in both
fn add(a: u32, b: u32) -> u32 {
  if (OUT_FLOAT) {
    return bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  }
  return a + b;
}
