// binary_broadcast_i32: out = lhs <OP> alpha * rhs on int32 with NumPy broadcasting, two's
// complement wrap-around on overflow as torch's int32 (WGSL integer arithmetic wraps).
// OP: 0 add, 1 sub, 2 mul (alpha is 1 for mul), 4 minimum, 5 maximum, 6 division rounded
// toward zero, 7 division rounded down (div.Tensor_mode). A zero divisor gives x (WGSL's
// rule; torch raises, which a kernel cannot). The entry point and the indexing are in
// binary_map.wgsl.

alias Elem = i32;

// x / y rounded down: the truncated quotient, one less where the remainder's sign differs
// from the divisor's
fn floor_divide(x: vec4<i32>, y: vec4<i32>) -> vec4<i32> {
  let q = x / y;
  let r = x - q * y;
  let zero = vec4<i32>(0);
  return select(q, q - vec4<i32>(1), (r != zero) & ((r < zero) != (y < zero)));
}

fn combine(x: vec4<i32>, y: vec4<i32>) -> vec4<i32> {
  switch OP {
    case 0u: { return x + params.alpha * y; }
    case 1u: { return x - params.alpha * y; }
    case 4u: { return min(x, y); }
    case 5u: { return max(x, y); }
    case 6u: { return x / y; }
    case 7u: { return floor_divide(x, y); }
    default: { return x * y; }
  }
}
