// Shared by the softmax kernels (emitted into their declaration blocks by opgen; not a
// standalone module).

// -inf by its bits (WGSL has no -inf constant Tint accepts)
fn is_neg_inf(v: f32) -> bool {
  return bitcast<u32>(v) == 0xff800000u;
}

// exp(d), exactly 0 for d = -inf whatever the adapter's exp does there
fn exp_or_zero(d: f32) -> f32 {
  return select(exp(d), 0.0, is_neg_inf(d));
}

// The output of an element whose value minus the line's max is `d`, given the line's
// sum of exp(d): softmax, or log_softmax when LOG (-inf stays -inf).
fn softmax_value(d: f32, sum: f32) -> f32 {
  if (LOG) {
    return d - log(sum);
  }
  return exp_or_zero(d) / sum;
}
