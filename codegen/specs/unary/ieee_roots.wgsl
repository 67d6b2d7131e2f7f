// sqrt and inverseSqrt with the IEEE edges fixed explicitly (drivers may compute sqrt as
// x * inverseSqrt(x), which breaks 0 and inf): sqrt(±0) = ±0, sqrt(inf) = inf,
// rsqrt(±0) = ±inf, rsqrt(inf) = 0; a negative x (-inf included) gives NaN, NaN stays NaN.
// Uses float_bits.wgsl.

fn sqrt_ieee(x: vec4<f32>) -> vec4<f32> {
  let edge = is_zero(x) | is_nan(x) | (bitcast<vec4<u32>>(x) == vec4<u32>(0x7f800000u));
  let negative = sign_bit(x) != vec4<u32>(0u);
  return select(select(sqrt(x), nan_from(x), negative), x, edge);
}

fn rsqrt_ieee(x: vec4<f32>) -> vec4<f32> {
  let negative = (sign_bit(x) != vec4<u32>(0u)) & !is_zero(x);
  var y = select(inverseSqrt(x), nan_from(x), negative | is_nan(x));
  y = select(y, inf_like(x), is_zero(x));
  return select(y, vec4<f32>(0.0), bitcast<vec4<u32>>(x) == vec4<u32>(0x7f800000u));
}
