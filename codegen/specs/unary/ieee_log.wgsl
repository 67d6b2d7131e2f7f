// log(x) to below 1 ulp (musl's logf): the bits give x = 2^k * m with m in [sqrt(1/2),
// sqrt(2)) (subnormals normalised in integer arithmetic, so an adapter that flushes
// subnormal float operations still sees them), then log(m) from s = f / (2 + f), f = m - 1,
// by its minimax polynomial in s^2, and k * ln2 in two parts. Edges are set on the bits,
// since adapters differ there (SwiftShader's log(NaN) is +inf): NaN -> NaN, x < 0 (-inf
// too) -> NaN, +-0 -> -inf, +inf -> +inf.
const LOG_LN2_HI: f32 = 6.9313812256e-01;
const LOG_LN2_LO: f32 = 9.0580006145e-06;
const LOG_LG1: f32 = 0.6666666269302368;
const LOG_LG2: f32 = 0.40000972151756287;
const LOG_LG3: f32 = 0.2849878668785095;
const LOG_LG4: f32 = 0.24279078841209412;

fn ieee_log(x: vec4<f32>) -> vec4<f32> {
  let mag = magnitude_bits(x);
  let subnormal = mag < vec4<u32>(0x00800000u);
  // a subnormal's leading bit moved up to bit 23: its exponent field reads 1, and the
  // shift is taken off k below
  let shift = vec4<u32>(23u) - min(firstLeadingBit(max(mag, vec4<u32>(1u))), vec4<u32>(23u));
  let norm = select(mag, mag << shift, subnormal);
  // k and m as musl: adding 1 - 0x3f3504f3 to the exponent field splits at sqrt(2)
  let ix = norm + vec4<u32>(0x3f800000u - 0x3f3504f3u);
  let k = vec4<i32>(ix >> vec4<u32>(23u)) - vec4<i32>(0x7f) -
          select(vec4<i32>(0), vec4<i32>(shift), subnormal);
  let m = bitcast<vec4<f32>>((ix & vec4<u32>(0x007fffffu)) + vec4<u32>(0x3f3504f3u));
  let f = m - vec4<f32>(1.0);
  let s = f / (vec4<f32>(2.0) + f);
  let z = s * s;
  let w = z * z;
  let t1 = w * (vec4<f32>(LOG_LG2) + w * LOG_LG4);
  let t2 = z * (vec4<f32>(LOG_LG1) + w * LOG_LG3);
  let r = t2 + t1;
  let hfsq = 0.5 * f * f;
  let dk = vec4<f32>(k);
  let y = s * (hfsq + r) + dk * LOG_LN2_LO - hfsq + f + dk * LOG_LN2_HI;
  // edges from the bits: -inf for +-0 (built from the zero's bits), NaN for a negative or
  // NaN x, x itself for +inf
  let negative = bitcast<vec4<u32>>(x) > vec4<u32>(0x80000000u);
  var out = select(y, bitcast<vec4<f32>>(mag | vec4<u32>(0xff800000u)), mag == vec4<u32>(0u));
  out = select(out, x, (mag == vec4<u32>(0x7f800000u)) & !negative);
  return select(out, nan_from(x), is_nan(x) | negative);
}
