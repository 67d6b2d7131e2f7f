// sin and cos (cos(x) = sin(x + pi/2): the override QUADRANT adds one quarter turn).
// x = n pi/2 + r, |r| <= pi/4, with pi/2 in three 8-bit parts and a remainder
// (Cody-Waite: n * part is exact while |n| < 2^16, i.e. |x| < 102943); then sin r or
// cos r by least-squares polynomials (error below 1e-7 on [-pi/4, pi/4]) picked and
// signed by the quadrant. Absolute error about 1e-7 for |x| < 1e5; beyond that the
// reduction loses precision and results, still in [-1, 1], may be off by up to 1
// (torch reduces exactly). sin(±0) = ±0, inf and NaN give NaN.

const TWO_OVER_PI: f32 = 0.6366197723675814;
const PIO2_1: f32 = 1.5703125;
const PIO2_2: f32 = 0.000484466552734375;
const PIO2_3: f32 = -6.407499313354492e-07;
const PIO2_4: f32 = 9.920935184482005e-10;

fn sin_poly(r: vec4<f32>, z: vec4<f32>) -> vec4<f32> {
  var p = vec4<f32>(2.7249963661961397e-06);
  p = fma(p, z, vec4<f32>(-1.9840083879581069e-04));
  p = fma(p, z, vec4<f32>(8.3333318656323499e-03));
  p = fma(p, z, vec4<f32>(-1.6666666663781823e-01));
  return r * fma(z, p, vec4<f32>(1.0));  // r * (...) keeps the sign of a zero r
}

fn cos_poly(z: vec4<f32>) -> vec4<f32> {
  var p = vec4<f32>(-2.7300986283637347e-07);
  p = fma(p, z, vec4<f32>(2.4800600627731172e-05));
  p = fma(p, z, vec4<f32>(-1.3888887672596612e-03));
  p = fma(p, z, vec4<f32>(4.1666666664323192e-02));
  return fma(z * z, p, 1.0 - 0.5 * z);
}

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  let finite = !(is_inf(x) | is_nan(x));
  let xf = select(vec4<f32>(0.0), x, finite);
  let k = vec4<i32>(round(xf * TWO_OVER_PI));
  let n = vec4<f32>(k);
  let reduced = (((xf - n * PIO2_1) - n * PIO2_2) - n * PIO2_3) - n * PIO2_4;
  let r = select(reduced, xf, k == vec4<i32>(0));  // keeps the sign of a zero x
  let z = r * r;
  let s = sin_poly(r, z);
  let c = cos_poly(z);
  let quadrant = vec4<u32>(k) + vec4<u32>(QUADRANT);
  let odd = (quadrant & vec4<u32>(1u)) != vec4<u32>(0u);
  let negate = (quadrant & vec4<u32>(2u)) != vec4<u32>(0u);
  let y = select(s, c, odd);
  return select(nan_from(x), select(y, -y, negate), finite);
}
