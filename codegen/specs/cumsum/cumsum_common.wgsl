// Shared by the cumsum kernels (composed into their modules by opgen; not a
// standalone module). Values travel as the output dtype's bits in a u32 (a float16
// output's as float32: sums accumulate in f32, each stored value rounded once): IN_BOOL,
// IN_FLOAT, IN_HALF, OUT_FLOAT and OUT_HALF say what the input and output hold (a bool
// input is one byte per element, four to a word, and counts as 0 or 1; a float16 input
// two halves to a word). The kernel supplies store(i, bits), which writes output element i.

// input element i converted to the output dtype (float -> int truncates, as torch; into
// float16 each element is rounded to half first, as torch converts the input to `dtype`)
fn load(i: u32) -> u32 {
  let bits = converted(i);
  if (OUT_HALF && !IN_HALF) {
    return bitcast<u32>(unpack2x16float(half_bits(vec4<f32>(bitcast<f32>(bits))).x).x);
  }
  return bits;
}

// input element i as the output's 32-bit type (float32 for a float16 output)
fn converted(i: u32) -> u32 {
  if (IN_BOOL) {
    let count = (input[i / 4u] >> (8u * (i % 4u))) & 0xffu;
    return select(count, bitcast<u32>(f32(count)), OUT_FLOAT);
  }
  var bits: u32;
  if (IN_HALF) {
    bits = bitcast<u32>(unpack2x16float(input[i >> 1u])[i & 1u]);
  } else {
    bits = input[i];
  }
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
