// fmod.Scalar on float32: fmod_bits (fmod_bits.wgsl) on each element's bits. The tensors
// are bound as u32 words: float32 bits in and out.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<u32>) -> vec4<u32> {
  let d = bitcast<u32>(params.divisor);
  return vec4<u32>(fmod_bits(x.x, d), fmod_bits(x.y, d), fmod_bits(x.z, d), fmod_bits(x.w, d));
}
