// abs: clears the sign bit (-0.0 -> 0.0, -inf -> inf, NaN stays NaN).

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(magnitude_bits(x));
}
