// qk_per_entry: attn[b, h, s, c] = dot(q[b, h, s], k[b, h, c]) * scale (+ mask), one
// invocation per entry on a 2-D grid (x: key c, y: query s, z: b*h). Chosen when there are
// too few rows to fill the GPU with one thread per row (channel attention).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  let s = gid.y;
  let bh = gid.z;
  if (c >= params.Skv || s >= params.Sq) {
    return;
  }
  let row = bh * params.Sq + s;
  let q_base = row * params.D4;
  let k_row = (bh * params.Skv + c) * params.D4;
  var acc = vec4<f32>(0.0);
  for (var d = 0u; d < params.D4; d++) {
    acc += q_load(q_base + d) * k_load(k_row + d);
  }
  var value = (acc.x + acc.y + acc.z + acc.w) * params.scale;
  if (params.has_mask != 0u) {
    let m = params.mask_strides;
    value += mask_load((bh / params.H) * m.x + (bh % params.H) * m.y + s * m.z + c * m.w);
  }
  attn[row * params.Skv + c] = value;
}
