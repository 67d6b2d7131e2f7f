// exp(x) to about 1 ulp over the whole f32 range (the builtin may be off by 3 + 2|x| ulp,
// 2e-6 relative at x = 88 on lavapipe): x = n ln2 + r with |r| <= ln2 / 2 (Cody-Waite:
// n * LN2_HI is exact for |n| < 256), exp(r) by its Taylor polynomial to r^7, scaled by
// 2^n in two exact power-of-two steps, so results down to the subnormals round once and
// large x overflow to inf. NaN passes; -inf gives 0, +inf gives inf.
const LN2_HI: f32 = 0.693145751953125;  // ln 2 to 16 bits
const LN2_LO: f32 = 1.4286068203094172e-06;  // ln 2 - LN2_HI
const LOG2_E: f32 = 1.4426950408889634;

// 2^k for k in [-126, 127]
fn two_pow(k: vec4<i32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(vec4<u32>(k + vec4<i32>(127)) << vec4<u32>(23u));
}

fn exp_reduced(x: vec4<f32>) -> vec4<f32> {
  // exp(-104) < 2^-150 rounds to 0; exp(89) > FLT_MAX
  let xc = clamp(x, vec4<f32>(-104.0), vec4<f32>(89.0));
  let n = round(xc * LOG2_E);
  let r = (xc - n * LN2_HI) - n * LN2_LO;
  var p = vec4<f32>(1.0 / 5040.0);
  p = fma(p, r, vec4<f32>(1.0 / 720.0));
  p = fma(p, r, vec4<f32>(1.0 / 120.0));
  p = fma(p, r, vec4<f32>(1.0 / 24.0));
  p = fma(p, r, vec4<f32>(1.0 / 6.0));
  p = fma(p, r, vec4<f32>(0.5));
  p = fma(p, r, vec4<f32>(1.0));
  p = fma(p, r, vec4<f32>(1.0));
  let k = vec4<i32>(n);  // in [-150, 128]: two steps of [-75, 64]
  let k1 = k >> vec4<u32>(1u);
  let y = p * two_pow(k1) * two_pow(k - k1);
  return select(y, x, is_nan(x));
}
