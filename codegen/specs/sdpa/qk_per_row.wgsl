// qk_per_row: attn[b, h, s, c] = dot(q[b, h, s], k[b, h, c]) * scale (+ mask), one
// invocation per (b, h, s) row walking every key with vec4 loads. Standard attention.

fn write_line(row: u32) {
  let s = row % params.Sq;
  let bh = row / params.Sq;
  let q_base = row * params.D4;
  let k_base = bh * params.Skv * params.D4;
  let m = params.mask_strides;
  let mask_row = (bh / params.H) * m.x + (bh % params.H) * m.y + s * m.z;
  for (var c = 0u; c < params.Skv; c++) {
    var acc = vec4<f32>(0.0);
    let k_row = k_base + c * params.D4;
    for (var d = 0u; d < params.D4; d++) {
      acc += q_load(q_base + d) * k_load(k_row + d);
    }
    var value = (acc.x + acc.y + acc.z + acc.w) * params.scale;
    if (params.has_mask != 0u) {
      value += mask_load(mask_row + c * m.w);
    }
    attn[row * params.Skv + c] = value;
  }
}
