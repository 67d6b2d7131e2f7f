// binary_broadcast_i32: out = lhs <OP> alpha * rhs on int32 with NumPy broadcasting, two's
// complement wrap-around on overflow as torch's int32 (WGSL integer arithmetic wraps).
// OP: 0 add, 1 sub, 2 mul (alpha is 1 for mul), 4 minimum, 5 maximum. The entry point and
// the indexing are in binary_map.wgsl.

alias Elem = i32;

fn combine(x: vec4<i32>, y: vec4<i32>) -> vec4<i32> {
  switch OP {
    case 0u: { return x + params.alpha * y; }
    case 1u: { return x - params.alpha * y; }
    case 4u: { return min(x, y); }
    case 5u: { return max(x, y); }
    default: { return x * y; }
  }
}
