// rsqrt: rsqrt_ieee (ieee_roots.wgsl): the builtin with rsqrt(±0) = ±inf, rsqrt(inf) = 0
// and NaN for a negative x, as torch.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  return rsqrt_ieee(x);
}
