// log: ieee_log (ieee_log.wgsl), below 1 ulp, IEEE edges set on the bits.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  return ieee_log(x);
}
