// pow(x, e) elementwise with C99's (and torch's float32 CPU) rules, for exponents that
// vary per element (pow.Tensor_Tensor; pow.Tensor_Scalar has its own fast paths):
// e = ±0 gives 1 (NaN x too) and x = 1 gives 1 (NaN e too); otherwise NaN on either side
// gives NaN. |x|^e is exp(e ln|x|), negated when x < 0 and e is an odd integer; a finite
// negative x with a non-integer e gives NaN. pow(±0, e) and pow(±inf, e) follow the sign
// of e (±0 and ±inf keep x's sign for an odd integer e), pow(-1, ±inf) = 1, and
// |x| < 1 or > 1 with e = ±inf give 0 or inf. e = 1 and e = 2 are x and x * x (correctly
// rounded, as torch); other results are within a few ulp of torch's (exp_reduced's 1 ulp
// plus ln|x|'s rounding times |e|). Uses float_bits.wgsl and exp_reduced.wgsl.

fn pow_ieee(x: vec4<f32>, e: vec4<f32>) -> vec4<f32> {
  let a = abs(x);
  let e_nan = is_nan(e);
  let e_integer = (floor(e) == e) & !e_nan;  // the infinities count as even integers
  let e_odd = e_integer & (floor(e * 0.5) * 2.0 != e);
  // log(NaN) is not NaN on every adapter (SwiftShader): NaN x is set below
  var m = exp_reduced(e * log(a));
  // |x| = 0 or inf: inf when (|x| = inf) == (e > 0), else 0; NaN for a NaN e
  let zero_or_inf = is_zero(x) | is_inf(x);
  let edge = select(vec4<f32>(0.0), inf_like(a), (e > vec4<f32>(0.0)) == is_inf(x));
  m = select(m, select(edge, nan_from(e), e_nan), zero_or_inf);
  // |x| = 1: 1 (also for e = ±inf or NaN); -1 with a non-integer e becomes NaN below
  m = select(m, vec4<f32>(1.0), magnitude_bits(x) == vec4<u32>(0x3f800000u));
  let negative = sign_bit(x) != vec4<u32>(0u);
  let finite_negative = negative & !zero_or_inf & !is_nan(x);
  m = select(m, nan_from(x), finite_negative & !e_integer);
  m = select(m, -m, negative & e_odd);
  m = select(m, x, is_nan(x));
  m = select(m, x * x, e == vec4<f32>(2.0));
  m = select(m, x, e == vec4<f32>(1.0));
  return select(m, vec4<f32>(1.0), is_zero(e));
}
