// tanh: odd, so computed on |x| and given the sign of x (-0.0 stays -0.0).
// |x| < 0.625: x + x^3 P(x^2), P a least-squares fit of degree 4 (relative error below
// 1e-7; the builtin gave tanh(1e-40) = 3e-8 on lavapipe); otherwise 1 - 2 / (exp(2|x|) + 1),
// with |x| capped at 10 where tanh is 1 in f32, so exp never overflows (no inf / inf).

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  let a = abs(x);
  let z = a * a;
  var p = vec4<f32>(-0.00610493227184915);
  p = fma(p, z, vec4<f32>(0.02100362738732016));
  p = fma(p, z, vec4<f32>(-0.05385249341576686));
  p = fma(p, z, vec4<f32>(0.1333278222001989));
  p = fma(p, z, vec4<f32>(-0.33333329098328784));
  let small = fma(a * z, p, a);
  let e = exp(2.0 * min(a, vec4<f32>(10.0)));
  let large = 1.0 - 2.0 / (e + 1.0);
  let t = select(large, small, a < vec4<f32>(0.625));
  return select(copy_sign(t, x), x, is_nan(x));
}
