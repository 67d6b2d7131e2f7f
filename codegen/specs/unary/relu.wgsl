// relu: out = x < 0 ? 0 : x, as torch computes it: NaN and -0.0 pass through. The test is
// done on the bits, because GPU compilers may turn a float compare-and-select into max(),
// which drops NaN (seen on NVIDIA's Vulkan driver).

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  let bits = bitcast<vec4<u32>>(x);
  let magnitude = bits & vec4<u32>(0x7fffffffu);
  // negative: sign set, not -0.0, not NaN
  let negative = ((bits >> vec4<u32>(31u)) == vec4<u32>(1u)) &
                 (magnitude != vec4<u32>(0u)) & (magnitude <= vec4<u32>(0x7f800000u));
  return select(x, vec4<f32>(0.0), negative);
}
