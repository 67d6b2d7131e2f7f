// exp: exp_reduced (exp_reduced.wgsl), about 1 ulp over the whole range; overflows to
// inf past 88.72, subnormal results below -87.3 (an adapter that flushes subnormals
// gives 0 there).

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  return exp_reduced(x);
}
