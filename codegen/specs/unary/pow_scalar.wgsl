// pow.Tensor_Scalar with torch's semantics: exponent 0 gives 1 (NaN base too) and 1 a
// copy; 2, 3 and -2 are products and 0.5, -0.5, -1 sqrt, rsqrt and reciprocal, as torch
// computes them (so pow(-0.0, 0.5) = -0.0 and pow(-inf, 0.5) = NaN). Any other exponent
// follows C99 pow: |x|^e as exp(e ln|x|), negative when x < 0 and e is an odd integer,
// NaN for a finite negative x and a non-integer e; pow(±0, e) and pow(±inf, e) by the
// sign of e; pow(1, e) = 1 (NaN e too) and pow(-1, ±inf) = 1.

fn pow_general(x: vec4<f32>, e: f32) -> vec4<f32> {
  let a = abs(x);
  let e_nan = is_nan(vec4<f32>(e)).x;
  let e_integer = floor(e) == e && !e_nan;  // the infinities count as even
  let e_odd = e_integer && floor(e * 0.5) * 2.0 != e;
  // log(NaN) is not NaN on every adapter (SwiftShader): NaN x is set below
  var m = exp_reduced(e * log(a));
  // |x| = 0 or inf: inf when (|x| = inf) == (e > 0), else 0; NaN for a NaN e
  let zero_or_inf = is_zero(x) | is_inf(x);
  let edge = select(vec4<f32>(0.0), inf_like(a), vec4<bool>(e > 0.0) == is_inf(x));
  m = select(m, select(edge, nan_from(x), vec4<bool>(e_nan)), zero_or_inf);
  m = select(m, vec4<f32>(1.0), a == vec4<f32>(1.0));  // -1 with a non-integer e: below
  let negative = sign_bit(x) != vec4<u32>(0u);
  let finite_negative = negative & !zero_or_inf & !is_nan(x);
  m = select(m, nan_from(x), finite_negative & vec4<bool>(!e_integer));
  m = select(m, -m, negative & vec4<bool>(e_odd));
  return select(m, x, is_nan(x));
}

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  let e = params.exponent;
  if (e == 0.0) {
    return vec4<f32>(1.0);
  }
  if (e == 1.0) {
    return x;
  }
  if (e == 2.0) {
    return x * x;
  }
  if (e == 3.0) {
    return x * x * x;
  }
  if (e == -2.0) {
    return 1.0 / (x * x);
  }
  if (e == 0.5) {
    return sqrt_ieee(x);
  }
  if (e == -0.5) {
    return rsqrt_ieee(x);
  }
  if (e == -1.0) {
    return 1.0 / x;
  }
  return pow_general(x, e);
}
