// add.Scalar, sub.Scalar, mul.Scalar: out = x + operand (OP 0; sub passes -(alpha * other))
// or x * operand (OP 1), IEEE as the tensor ops: NaN propagates, inf - inf and 0 * inf are
// NaN, overflow gives inf, zero signs by IEEE rules (x * c, never x * c + 0).

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<f32>) -> vec4<f32> {
  if (OP == 0u) {
    return x + params.operand;
  }
  return x * params.operand;
}
