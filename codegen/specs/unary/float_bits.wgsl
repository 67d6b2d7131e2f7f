// IEEE classification and sign handling on the bits: GPU compilers may fold x != x or
// rewrite a float compare-and-select into min/max, which drop NaN and the sign of zero
// (docs/numerics.md). Special results are built from the input's bits, never from a
// constant NaN or infinity (Tint rejects those as constant expressions).

fn magnitude_bits(x: vec4<f32>) -> vec4<u32> {
  return bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu);
}

fn is_nan(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) > vec4<u32>(0x7f800000u);
}

fn is_inf(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) == vec4<u32>(0x7f800000u);
}

fn is_zero(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) == vec4<u32>(0u);
}

fn sign_bit(x: vec4<f32>) -> vec4<u32> {
  return bitcast<vec4<u32>>(x) & vec4<u32>(0x80000000u);
}

// |magnitude| with the sign of `sign_of`
fn copy_sign(magnitude: vec4<f32>, sign_of: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(magnitude_bits(magnitude) | sign_bit(sign_of));
}

// a quiet NaN (any sign), computed from x
fn nan_from(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(bitcast<vec4<u32>>(x) | vec4<u32>(0x7fc00000u));
}

// an infinity with the sign of x
fn inf_like(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(sign_bit(x) | vec4<u32>(0x7f800000u));
}

// a zero with the sign of x
fn zero_like(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(sign_bit(x));
}
