// clamp (and hardtanh): out = min(max(x, lo), hi) as torch computes it: x stays unless
// x < lo (then lo) and the result stays unless it is > hi (then hi), so lo > hi gives hi,
// -0.0 and 0.0 compare equal (clamp(-0.0, min=0.0) = -0.0), NaN x stays NaN and a NaN
// bound makes every element NaN. The order tests are integer compares on sign-magnitude
// keys, so no compiler can turn them into a min/max that drops NaN or the sign of zero.

// an integer whose order is the float order (-0.0 and 0.0 equal); for non-NaN x
fn order_key(x: vec4<f32>) -> vec4<i32> {
  let bits = bitcast<vec4<i32>>(x);
  return select(bits, -(bits & vec4<i32>(0x7fffffff)), bits < vec4<i32>(0));
}

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  let lo = vec4<f32>(params.min_value);
  let hi = vec4<f32>(params.max_value);
  let has_min = vec4<bool>(params.has_min != 0u);
  let has_max = vec4<bool>(params.has_max != 0u);
  var y = select(x, lo, has_min & (order_key(x) < order_key(lo)));
  y = select(y, hi, has_max & (order_key(y) > order_key(hi)));
  let nan_bound = (has_min & is_nan(lo)) | (has_max & is_nan(hi));
  return select(y, nan_from(x), is_nan(x) | nan_bound);
}
