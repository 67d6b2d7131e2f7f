// Shared by the softmax kernels (composed into their modules by opgen; not a
// standalone module). NaN is carried explicitly: adapters' exp and log need not
// propagate it (SwiftShader's log(NaN) is +inf).

// NaN and -inf by their bits: compilers may fold `x != x`, and WGSL has no -inf
// constant Tint accepts
fn is_nan(v: f32) -> bool {
  return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}

fn is_neg_inf(v: f32) -> bool {
  return bitcast<u32>(v) == 0xff800000u;
}

// exp(d): exactly 0 for d = -inf, NaN for NaN, whatever the adapter's exp does there
fn exp_or_zero(d: f32) -> f32 {
  return select(select(exp(d), 0.0, is_neg_inf(d)), d, is_nan(d));
}

// x minus the line's max. With SAFE (_safe_softmax) a -inf element stays -inf even in an
// all -inf line, where plain softmax has -inf - -inf = NaN: that line's sum is then 0.
fn shifted(x: f32, line_max: f32) -> f32 {
  return select(x - line_max, x, SAFE && is_neg_inf(x));
}

// The output of an element whose shifted value is `d`, given the line's sum of exp(d):
// softmax, or log_softmax when LOG (-inf stays -inf). A NaN sum (a NaN, +inf or all -inf
// line, as in torch) makes the whole line NaN; with SAFE an all -inf line (sum 0: any
// other line holds an exp(0)) gives zeros, as torch's _safe_softmax.
fn softmax_value(d: f32, sum: f32) -> f32 {
  if (SAFE && sum == 0.0) {
    return 0.0;
  }
  if (is_nan(sum)) {
    return sum;
  }
  if (LOG) {
    return d - log(sum);
  }
  return exp_or_zero(d) / sum;
}
