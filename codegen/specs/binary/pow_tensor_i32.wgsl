// pow_tensor_i32: out = pow(lhs, rhs) for a float32 base and an int32 exponent (int64 in
// the graph: BLOOM's ALiBi slopes), with NumPy broadcasting (binary_map.wgsl). The
// exponent is converted to f32, as torch promotes it; the IEEE rules are in pow_ieee.wgsl.

alias Elem = f32;

fn combine(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
  return pow_ieee(x, y);
}
