// fmod on float32 bits: C's fmod (torch.fmod), x - trunc(x / d) * d computed exactly (the
// result is always a float32; no rounding happens), with the dividend's sign. Done with
// integer arithmetic (musl's fmodf: binary long division of the significands), so
// subnormal inputs and results are kept whatever the adapter does with subnormal floats.
// Edges as C and torch: x = +-inf or d = +-0 or a NaN on either side -> NaN; |x| < |d|
// (d = +-inf included) -> x; a zero result keeps x's sign (-7.5 fmod 2.5 = -0.0).
// Used by fmod.Scalar and by div.Tensor_mode's floor division.

// The significand of a non-zero finite magnitude `m` with its leading 1 at bit 23, and the
// exponent that goes with it (below 1 for a subnormal, which is normalized here).
fn unpack(m: u32) -> vec2<u32> {
  if (m >= 0x800000u) {
    return vec2<u32>((m & 0x7fffffu) | 0x800000u, m >> 23u);
  }
  let shift = countLeadingZeros(m) - 8u;
  return vec2<u32>(m << shift, bitcast<u32>(1i - i32(shift)));
}

fn fmod_bits(x: u32, d: u32) -> u32 {
  let sign = x & 0x80000000u;
  let mx = x & 0x7fffffffu;
  let md = d & 0x7fffffffu;
  if (md == 0u || md > 0x7f800000u || mx >= 0x7f800000u) {
    return 0x7fc00000u;  // x inf or NaN, d zero or NaN
  }
  if (mx < md) {
    return x;  // |x| < |d|, d = inf too: x itself, -0.0 included
  }
  if (mx == md) {
    return sign;
  }
  let ux = unpack(mx);
  let ud = unpack(md);
  var r = ux.x;
  let s = ud.x;
  var e = bitcast<i32>(ux.y);
  let ed = bitcast<i32>(ud.y);
  // r < 2s on entry to every step: one conditional subtraction per bit of the quotient
  for (; e > ed; e--) {
    if (r >= s) {
      r -= s;
    }
    if (r == 0u) {
      return sign;
    }
    r <<= 1u;
  }
  if (r >= s) {
    r -= s;
  }
  if (r == 0u) {
    return sign;
  }
  // renormalize: the leading 1 back to bit 23, then a normal or a subnormal result
  let shift = countLeadingZeros(r) - 8u;
  r <<= shift;
  e -= i32(shift);
  if (e > 0i) {
    return sign | (u32(e) << 23u) | (r & 0x7fffffu);
  }
  return sign | (r >> u32(1i - e));
}
