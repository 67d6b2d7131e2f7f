// attn_v: out[b, h, s, e] = sum_c attn[b, h, s, c] * v[b, h, c, e], one invocation per
// output element.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  let e = i % params.Dv;
  let row = i / params.Dv;  // (b, h, s)
  let bh = row / params.Sq;
  let a_base = row * params.Skv;
  let v_base = bh * params.Skv * params.Dv + e;
  var acc = 0.0;
  for (var c = 0u; c < params.Skv; c++) {
    acc += attn[a_base + c] * v_load(v_base + c * params.Dv);
  }
  output_store(i, acc);
}
