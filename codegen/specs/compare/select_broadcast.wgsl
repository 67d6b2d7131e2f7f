// select_broadcast: where(condition, self, other) into a float32 or int32 output, the
// three operands broadcast (a: condition, b: self, c: other). Each invocation writes
// whole 16-byte units of the output (4 elements; ITEMS_PER_INVOCATION of them, WORKGROUP_SIZE_X apart). The chosen
// element's bits pass unchanged (NaN payloads, -0.0); an operand of another dtype is
// converted to the output's, as torch promotes it.

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
    if (kind == KIND_F32) {
      return v;
    }
    return bitcast<vec4<u32>>(vec4<f32>(bitcast<vec4<i32>>(v)));  // int32, or bool 0/1
  }
  if (kind == KIND_F32) {
    return bitcast<vec4<u32>>(vec4<i32>(bitcast<vec4<f32>>(v)));
  }
  return v;
}
