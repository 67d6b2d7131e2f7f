// abs on int32 (and int64, which the graph holds as int32): two's complement negation of
// the negative words, so |-2147483648| wraps to -2147483648 as torch's int32 abs.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<i32>) -> vec4<i32> {
  let bits = bitcast<vec4<u32>>(x);
  return bitcast<vec4<i32>>(select(bits, vec4<u32>(0u) - bits, x < vec4<i32>(0)));
}
