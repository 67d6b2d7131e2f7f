// gelu: out = x * Phi(x), Phi the standard normal CDF (approximate='none'), or
// x * 0.5 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))) (approximate='tanh').
// Phi is computed from erfc on |x|, so the negative tail keeps its relative accuracy
// (x * Phi(x) rather than x - x * Phi(-x)), and x multiplies a factor in [0, 1], so no
// finite input overflows.

// erfc(z) for z >= 0 as t * exp(-z^2 + p(t)), t = 1 / (1 + z / 2), with the classic
// Chebyshev-fitted polynomial p (fractional error below 1.2e-7 for every z >= 0).
fn erfc_nonnegative(z: vec4<f32>) -> vec4<f32> {
  let t = 1.0 / (1.0 + 0.5 * z);
  var p = vec4<f32>(0.17087277);
  p = fma(p, t, vec4<f32>(-0.82215223));
  p = fma(p, t, vec4<f32>(1.48851587));
  p = fma(p, t, vec4<f32>(-1.13520398));
  p = fma(p, t, vec4<f32>(0.27886807));
  p = fma(p, t, vec4<f32>(-0.18628806));
  p = fma(p, t, vec4<f32>(0.09678418));
  p = fma(p, t, vec4<f32>(0.37409196));
  p = fma(p, t, vec4<f32>(1.00002368));
  p = fma(p, t, vec4<f32>(-1.26551223));
  return t * exp(p - z * z);
}

fn normal_cdf(x: vec4<f32>) -> vec4<f32> {
  // Phi(x) = erfc(-x / sqrt(2)) / 2; for x > 0 it is 1 - Phi(-x)
  let half_tail = 0.5 * erfc_nonnegative(abs(x) * 0.70710678118654752);
  return select(half_tail, 1.0 - half_tail, x > vec4<f32>(0.0));
}

fn tanh_factor(x: vec4<f32>) -> vec4<f32> {
  // tanh saturates to +-1 in f32 past 10; clamping keeps implementations that compute it
  // from exp() away from inf / inf
  let u = clamp(0.7978845608028654 * (x + 0.044715 * x * x * x), vec4<f32>(-10.0),
                vec4<f32>(10.0));
  return 0.5 + 0.5 * tanh(u);
}

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  if (params.tanh_approximation != 0u) {
    return x * tanh_factor(x);
  }
  return x * normal_cdf(x);
}
