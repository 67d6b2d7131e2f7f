// The shader-f16 stores of views (codegen/language/floats.py): the value rounded exactly
// as half_bits rounds it (half_bits.wgsl), then converted: a value a half holds converts
// exactly, whatever rounding the device's f32 -> f16 conversion would apply.

fn rounded_halves(v: vec4<f32>) -> vec4<f16> {
  return vec4<f16>(unpack_halves(pack_halves(v)));
}
