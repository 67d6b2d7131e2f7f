// silu_mul: out = gate * sigmoid(gate) * up, each vec4 of the gate with the up vec4 at
// the same index (sigmoid as ../unary/sigmoid.wgsl writes it: neither tail overflows).

// The entry point is ../common/map_vec4s.wgsl; load_vec4 reads the gate.
fn map_vec4(i: u32, gate: vec4<f32>) -> vec4<f32> {
  let e = exp(-abs(gate));
  let s = 1.0 / (1.0 + e);
  let sigmoid = select(e * s, s, gate >= vec4<f32>(0.0));
  return gate * sigmoid * up_load(i);
}
