// leaky_relu: out = x > 0 ? x : negative_slope * x, as torch computes it (so with a
// negative slope -0.0 gives 0.0 and 0.0 gives -0.0; NaN stays NaN).

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  return select(params.negative_slope * x, x, x > vec4<f32>(0.0));
}
