// div_rounding: div.Tensor_mode on float32, out = self / other rounded toward zero, or
// (FLOOR) down, with NumPy broadcasting, bit for bit as torch computes it:
// - trunc: trunc(x / y), a zero result signed as the quotient (-0.5 -> -0.0);
// - floor: torch's div_floor: m = fmod(x, y) exactly, d = (x - m) / y, one less where m's
//   sign differs from y's, then floor(d) with a nudge up when d lies more than 0.5 above
//   it; a zero result signed as x / y; a zero divisor gives x / y (inf or NaN).
// The entry point and the indexing are in binary_map.wgsl, divide() in divide.wgsl,
// fmod_bits() in ../unary/fmod_bits.wgsl.

alias Elem = f32;

const SIGN: u32 = 0x80000000u;

fn floor_divide(x: f32, y: f32) -> f32 {
  let q = divide(vec4<f32>(x), vec4<f32>(y)).x;
  let y_bits = bitcast<u32>(y);
  if ((y_bits & ~SIGN) == 0u) {
    return q;
  }
  let m = bitcast<f32>(fmod_bits(bitcast<u32>(x), y_bits));
  var d = divide(vec4<f32>(x - m), vec4<f32>(y)).x;
  if (m != 0.0 && ((y < 0.0) != (m < 0.0))) {
    d -= 1.0;
  }
  if (d == 0.0) {
    return bitcast<f32>(bitcast<u32>(q) & SIGN);
  }
  var f = floor(d);
  if (d - f > 0.5) {
    f += 1.0;
  }
  return f;
}

fn combine(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
  if (FLOOR) {
    return vec4<f32>(floor_divide(x.x, y.x), floor_divide(x.y, y.y), floor_divide(x.z, y.z),
                     floor_divide(x.w, y.w));
  }
  let q = divide(x, y);
  // 2^23 and up (infinities, NaN) are whole already: kept bit for bit
  let whole = magnitude(q) >= vec4<u32>(0x4b000000u);
  let signed = bitcast<vec4<f32>>(bitcast<vec4<u32>>(trunc(q)) |
                                  (bitcast<vec4<u32>>(q) & vec4<u32>(SIGN)));
  return select(signed, q, whole);
}
