// binary_broadcast: out = lhs <OP> alpha * rhs on float32 with NumPy broadcasting. Dims are
// right-aligned into eight slots; a broadcast operand dim has stride 0.
// OP: 0 add, 1 sub, 2 mul (alpha is 1 for mul), 3 true division, 4 minimum, 5 maximum.
// The entry point and the indexing are in binary_map.wgsl, magnitude() and divide() in
// divide.wgsl.

alias Elem = f32;

// An order-preserving integer key with -0.0 below 0.0 (IEEE 754-2019 minimum/maximum):
// the magnitude, bit-complemented for a set sign.
fn order_key(v: vec4<f32>) -> vec4<i32> {
  let m = bitcast<vec4<i32>>(magnitude(v));
  return select(m, ~m, bitcast<vec4<u32>>(v) >= vec4<u32>(0x80000000u));
}

// torch.minimum / maximum: a NaN on either side gives NaN (self's if both are);
// minimum(-0.0, 0.0) = -0.0 and maximum(-0.0, 0.0) = 0.0 in either order (torch's CPU
// kernel gives either zero, by its vector or scalar path). Bits are moved, never computed
// on, so no compiler min/max rewrite can drop a NaN or a zero's sign.
fn pick(x: vec4<f32>, y: vec4<f32>, take_min: bool) -> vec4<f32> {
  let inf = vec4<u32>(0x7f800000u);
  let kx = order_key(x);
  let ky = order_key(y);
  let take_y = select(ky > kx, ky < kx, take_min);
  let nan_x = magnitude(x) > inf;
  let nan_y = magnitude(y) > inf;
  return select(x, y, (take_y | nan_y) & !nan_x);
}

fn combine(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
  switch OP {
    case 0u: { return x + params.alpha * y; }
    case 1u: { return x - params.alpha * y; }
    case 2u: { return x * y; }
    case 4u: { return pick(x, y, true); }
    case 5u: { return pick(x, y, false); }
    default: { return divide(x, y); }
  }
}
