// float16 in u32 words, for the kernels whose bindings view float16 tensors (composed into
// their modules by opgen, codegen/language/floats.py) and for any kernel that moves halves
// itself (convert.wgsl).

// f32 -> binary16 bits (low 16 bits of each lane), as torch's .half() rounds: nearest,
// ties to even; 65520 and above an infinity; subnormal halves kept; NaN quiet.
fn half_bits(v: vec4<f32>) -> vec4<u32> {
  let bits = bitcast<vec4<u32>>(v);
  let sign = (bits >> vec4<u32>(16u)) & vec4<u32>(0x8000u);
  let mag = bits & vec4<u32>(0x7fffffffu);
  let rebiased = mag - vec4<u32>(0x38000000u);  // exponent bias 127 -> 15 (normal halves)
  let normal = (rebiased + vec4<u32>(0xfffu) + ((rebiased >> vec4<u32>(13u)) & vec4<u32>(1u)))
               >> vec4<u32>(13u);
  // a subnormal half: the mantissa in units of 2^-24
  let mantissa = (mag & vec4<u32>(0x7fffffu)) | vec4<u32>(0x800000u);
  let shift = clamp(vec4<u32>(126u) - min(mag >> vec4<u32>(23u), vec4<u32>(126u)),
                    vec4<u32>(14u), vec4<u32>(25u));
  let kept = mantissa >> shift;
  let rest = mantissa & ((vec4<u32>(1u) << shift) - vec4<u32>(1u));
  let halfway = vec4<u32>(1u) << (shift - vec4<u32>(1u));
  let odd = (kept & vec4<u32>(1u)) == vec4<u32>(1u);
  let up = select(vec4<u32>(0u), vec4<u32>(1u), (rest > halfway) | ((rest == halfway) & odd));
  var h = select(kept + up, normal, mag >= vec4<u32>(0x38800000u));
  h = select(h, vec4<u32>(0x7c00u), mag >= vec4<u32>(0x477ff000u));
  let nan = vec4<u32>(0x7e00u) | ((mag >> vec4<u32>(13u)) & vec4<u32>(0x3ffu));
  return sign | select(h, nan, mag > vec4<u32>(0x7f800000u));
}

// Four halves in two words, element 0 in the low half of the first.
fn pack_halves(v: vec4<f32>) -> vec2<u32> {
  let h = half_bits(v);
  return vec2<u32>(h.x | (h.y << 16u), h.z | (h.w << 16u));
}

// Two words of halves as four floats (subnormal halves are normal floats).
fn unpack_halves(w: vec2<u32>) -> vec4<f32> {
  return vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y));
}
