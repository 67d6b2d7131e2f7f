// hardswish: x * min(max(x + 3, 0), 6) / 6 in torch's order of operations, so
// hardswish(-inf) = -inf * 0 = NaN and x <= -3 gives -0.0, as in torch. A NaN x makes the
// product NaN whatever the clamp gives.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  return x * clamp(x + 3.0, vec4<f32>(0.0), vec4<f32>(6.0)) / 6.0;
}
