// Shared by every conv2d kernel (composed into their modules by opgen; not a
// standalone module): reads the conv Params and the bias binding.

// Bias, then the optional clamp of conv_with_clamp (NaN passes through, as in torch).
fn conv_epilogue(acc: f32, oc: u32) -> f32 {
  var v = acc;
  if (params.has_bias != 0u) {
    v = v + bias_load(oc);
  }
  if (params.has_min != 0u) {
    v = select(v, params.min_value, v < params.min_value);
  }
  if (params.has_max != 0u) {
    v = select(v, params.max_value, v > params.max_value);
  }
  return v;
}
