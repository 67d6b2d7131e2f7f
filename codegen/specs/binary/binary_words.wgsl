// The loads and stores of binary_map.wgsl for the arrays as the spec declares them: rhs
// elements converted to Elem (pow's int32 exponents become f32, as torch promotes them).

fn load_lhs(i: u32) -> vec4<Elem> {
  return lhs[i];
}

fn load_rhs(i: u32) -> vec4<Elem> {
  return vec4<Elem>(rhs[i]);
}

fn store_out(i: u32, v: vec4<Elem>) {
  output[i] = v;
}
