// attn_v: out[b, h, s, e] = sum_c attn[b, h, s, c] * v[b, h, c, e], one invocation per
// output element.

fn write_element(i: u32) {
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
