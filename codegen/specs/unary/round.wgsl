// round: to the nearest integer, halves to even, as torch.round. The result keeps the
// input's sign (-0.3 and -0.5 give -0.0), and magnitudes of 2^23 and up (already
// integers), infinities and NaN pass through bit for bit.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  let integral = magnitude_bits(x) >= vec4<u32>(0x4b000000u);  // |x| >= 2^23, inf, NaN
  return select(copy_sign(round(x), x), x, integral);
}
