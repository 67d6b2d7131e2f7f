// sqrt: sqrt_ieee (ieee_roots.wgsl): the builtin with sqrt(±0) = ±0, sqrt(inf) = inf and
// NaN for a negative x, as torch.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  return sqrt_ieee(x);
}
