// fmod.Scalar on int32 (and int64, which the graph holds as int32): C's truncating
// remainder, with the dividend's sign (-7 fmod 3 = -1, 7 fmod -3 = 1), as torch. Computed
// on the magnitudes as u32, so no signed edge is left to the compiler: -2147483648 fmod -1
// is 0 and -2147483648 fmod -2147483648 is 0. A zero divisor never gets here: torch raises
// ZeroDivisionError for it, and so does the op's guard (the divisor is a constant).

// |v| as u32 (|-2147483648| = 2147483648 fits)
fn magnitude(v: vec4<i32>) -> vec4<u32> {
  let bits = bitcast<vec4<u32>>(v);
  return select(bits, vec4<u32>(0u) - bits, v < vec4<i32>(0));
}

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<i32>) -> vec4<i32> {
  let r = magnitude(x) % magnitude(vec4<i32>(params.divisor));
  return bitcast<vec4<i32>>(select(r, vec4<u32>(0u) - r, x < vec4<i32>(0)));
}
