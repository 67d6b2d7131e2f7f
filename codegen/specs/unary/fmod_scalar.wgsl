// fmod.Scalar on float tensors: fmod_bits (fmod_bits.wgsl) on each element's float32 bits.
// Vec is vec4<u32> (fmod_scalar: float32 bound as words, bits in and out) or vec4<f32>
// (fmod_scalar_half's float16 twins: halves widened exactly through the views; the
// remainder of two halves is a half, so the store rounds nothing). HALF_DIVISOR: the
// divisor is rounded to half first, as torch converts the Scalar to the tensor's dtype.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(v: Vec) -> Vec {
  var d = bitcast<u32>(params.divisor);
  if (HALF_DIVISOR) {
    d = bitcast<u32>(unpack2x16float(half_bits(vec4<f32>(params.divisor)).x).x);
  }
  let x = bitcast<vec4<u32>>(v);
  return bitcast<Vec>(vec4<u32>(fmod_bits(x.x, d), fmod_bits(x.y, d), fmod_bits(x.z, d),
                                fmod_bits(x.w, d)));
}
