// select_broadcast: where(condition, self, other) into a float32, int32 or float16 output
// (OUT_HALF), the three operands broadcast (a: condition, b: self, c: other). Each
// invocation writes whole units of the output (4 elements: 16 bytes, or 8 of halves;
// ITEMS_PER_INVOCATION of them, WORKGROUP_SIZE_X apart). The chosen element's bits pass
// unchanged (NaN payloads, -0.0); an operand of another dtype is converted to the
// output's, as torch promotes it (to float16: rounded as half_bits rounds).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let first = first_item(gid, num_workgroups);
  for (var k = 0u; k < ITEMS_PER_INVOCATION; k++) {
    let q = first + k * WORKGROUP_SIZE_X;
    if (q >= params.num_quads) {
      return;
    }
    let quad = gather(q);
    let condition = vec4<bool>(truthy(quad.a.x, A_KIND), truthy(quad.a.y, A_KIND),
                               truthy(quad.a.z, A_KIND), truthy(quad.a.w, A_KIND));
    if (OUT_HALF) {
      let halves = select(as_halves(quad.c, C_KIND), as_halves(quad.b, B_KIND), condition);
      output[2u * q] = halves.x | (halves.y << 16u);
      output[2u * q + 1u] = halves.z | (halves.w << 16u);
      continue;
    }
    let result = select(converted(quad.c, C_KIND), converted(quad.b, B_KIND), condition);
    output[4u * q] = result.x;
    output[4u * q + 1u] = result.y;
    output[4u * q + 2u] = result.z;
    output[4u * q + 3u] = result.w;
  }
}

// Elements of an operand as the output's dtype (OUT_FLOAT: float32, else int32).
fn converted(v: vec4<u32>, kind: u32) -> vec4<u32> {
  if (OUT_FLOAT) {
    if (is_float(kind)) {
      return converted_floats(v, kind);
    }
    return bitcast<vec4<u32>>(vec4<f32>(bitcast<vec4<i32>>(v)));  // int32, or bool 0/1
  }
  if (is_float(kind)) {
    return bitcast<vec4<u32>>(vec4<i32>(bitcast<vec4<f32>>(converted_floats(v, kind))));
  }
  return v;
}

// float32 or float16 elements as float32 bits.
fn converted_floats(v: vec4<u32>, kind: u32) -> vec4<u32> {
  return vec4<u32>(widened(v.x, kind), widened(v.y, kind), widened(v.z, kind),
                   widened(v.w, kind));
}

// Elements of an operand as float16 bits: halves unchanged, the others rounded.
fn as_halves(v: vec4<u32>, kind: u32) -> vec4<u32> {
  if (kind == KIND_F16) {
    return v;
  }
  if (kind == KIND_F32) {
    return half_bits(bitcast<vec4<f32>>(v));
  }
  return half_bits(vec4<f32>(bitcast<vec4<i32>>(v)));  // int32, or bool 0/1
}
