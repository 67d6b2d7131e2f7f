// pow_tensor (and its variant pow_tensor_i32): out = pow(lhs, rhs) for a float32 base and a
// float32 exponent (pow_tensor_i32: an int32 one, int64 in the graph, BLOOM's ALiBi slopes,
// converted to f32 as torch promotes it), with NumPy broadcasting (binary_map.wgsl); the
// IEEE rules are in pow_ieee.wgsl.

alias Elem = f32;

fn combine(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
  return pow_ieee(x, y);
}
