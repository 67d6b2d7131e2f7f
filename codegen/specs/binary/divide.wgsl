// IEEE float32 division for the binary kernels (binary_broadcast, div_rounding).

fn magnitude(v: vec4<f32>) -> vec4<u32> {
  return bitcast<vec4<u32>>(v) & vec4<u32>(0x7fffffffu);
}

// x / y with IEEE results where Vulkan leaves division undefined (a zero, infinite or NaN
// or tiny or huge divisor): x / ±0 = ±inf (sign of x times sign of y), 0 / 0 = NaN, finite / ±inf = ±0,
// inf / inf = NaN; NaN propagates. Infinities and NaN are built from the bits (no
// constant NaN or inf).
fn divide(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
  let sign = (bitcast<vec4<u32>>(x) ^ bitcast<vec4<u32>>(y)) & vec4<u32>(0x80000000u);
  let mx = magnitude(x);
  let my = magnitude(y);
  let inf = vec4<u32>(0x7f800000u);
  let nan = (mx > inf) | (my > inf) | ((mx == vec4<u32>(0u)) & (my == vec4<u32>(0u))) |
            ((mx == inf) & (my == inf));
  // a divisor outside [2^-126, 2^126] is scaled into it with the dividend (exact)
  let scale = select(select(vec4<f32>(1.0), vec4<f32>(4.0), my < vec4<u32>(0x00800000u)),
                     vec4<f32>(0.25), my > vec4<u32>(0x7e800000u));
  var q = (x * scale) / (y * scale);
  q = select(q, bitcast<vec4<f32>>(sign | inf), my == vec4<u32>(0u));
  q = select(q, bitcast<vec4<f32>>(sign), (my == inf) & (mx < inf));
  return select(q, bitcast<vec4<f32>>(inf | vec4<u32>(0x00400000u) | mx), nan);
}
