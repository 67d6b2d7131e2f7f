// The shader-f16 stores of views (codegen/language/floats.py): the value rounded exactly
// as half_bits rounds it (half_bits.wgsl: torch's .half()), then converted: a value a half
// holds converts exactly, whatever rounding the device's f32 -> f16 conversion would apply.
//
// The rounding in float arithmetic, about a third of half_bits' integer work (a store
// of a GEMM with K of a few hundred spent as long rounding as multiplying): v scaled by
// a power of two so that its half ulp (2^-24 below 2^-14, else 2^(exponent - 10)) is 1,
// rounded to an integer with ties to even (WGSL's round), scaled back. Both scalings are
// exact (powers of two, no f32 subnormal result); past 65504 the result is an infinity
// of v's sign; inf and NaN stay so. Bit for bit half_bits' result on every f32 of
// magnitude 2^-27 .. 2^19 and on 10^8 random bit patterns (checked against torch).

fn rounded_halves(v: vec4<f32>) -> vec4<f16> {
  let bits = bitcast<vec4<u32>>(v);
  let exponent = max((bits >> vec4<u32>(23u)) & vec4<u32>(0xffu), vec4<u32>(113u));
  let up = bitcast<vec4<f32>>((vec4<u32>(264u) - exponent) << vec4<u32>(23u));
  let down = bitcast<vec4<f32>>((exponent - vec4<u32>(10u)) << vec4<u32>(23u));
  let r = round(v * up) * down;
  let inf = bitcast<vec4<f32>>((bits & vec4<u32>(0x80000000u)) | vec4<u32>(0x7f800000u));
  return vec4<f16>(select(r, inf, abs(r) > vec4<f32>(65504.0)));
}
