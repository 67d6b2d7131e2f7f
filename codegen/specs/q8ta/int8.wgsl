// int8 tensors in graph buffers: one byte per element, four to a u32 word, little-endian
// (element 4w + j in bits 8j..8j+7 of word w). Kernels bind them as array<u32> and write
// whole words, so no two invocations write one word.

// The four int8 elements of a word, sign-extended.
fn unpack_int8(word: u32) -> vec4<i32> {
  return bitcast<vec4<i32>>(vec4<u32>(word) << vec4<u32>(24u, 16u, 8u, 0u)) >> vec4<u32>(24u);
}

// Element j (0..3) of a word, sign-extended.
fn int8_of(word: u32, j: u32) -> i32 {
  return bitcast<i32>(word << (24u - 8u * j)) >> 24u;
}

// Four values in -128..127 as one word.
fn pack_int8(v: vec4<i32>) -> u32 {
  let b = bitcast<vec4<u32>>(v) & vec4<u32>(0xffu);
  return b.x | (b.y << 8u) | (b.z << 16u) | (b.w << 24u);
}

// quantize_per_tensor as torch computes it in float32: clamp(round(x * inv_scale) +
// zero_point, quant_min, quant_max), rounding halves to even; the caller passes inv_scale
// as torch does (1 / scale in double, then float32). +-inf saturate; NaN (no int8 value)
// gives the zero point, decided on the bits.
fn quantize(x: f32, inv_scale: f32, zero_point: i32, quant_min: i32, quant_max: i32) -> i32 {
  if ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u) {
    return zero_point;
  }
  let q = round(x * inv_scale) + f32(zero_point);
  return i32(clamp(q, f32(quant_min), f32(quant_max)));
}

// dequantize_per_tensor as torch computes it: (float32(q) - zero_point) * scale.
fn dequantize(q: i32, scale: f32, zero_point: i32) -> f32 {
  return f32(q - zero_point) * scale;
}
