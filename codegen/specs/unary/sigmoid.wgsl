// sigmoid: out = 1 / (1 + exp(-x)), written so neither tail overflows.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  let e = exp(-abs(x));
  let s = 1.0 / (1.0 + e);
  return select(e * s, s, x >= vec4<f32>(0.0));
}
