// conv2d: the general direct conv (any groups, e.g. depthwise or a grouped RGB stem);
// one thread per output element.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.B * params.OC * params.OH * params.OW) {
    return;
  }
  let o = output_element(i);

  var acc = 0.0;
  for (var c = 0u; c < o.icpg; c++) {
    for (var kh = 0u; kh < params.KH; kh++) {
      let ih = i32(o.oh * params.sH + kh * params.dH) - i32(params.pH);
      if (ih < 0 || ih >= i32(params.IH)) {
        continue;
      }
      for (var kw = 0u; kw < params.KW; kw++) {
        let iw = i32(o.ow * params.sW + kw * params.dW) - i32(params.pW);
        if (iw < 0 || iw >= i32(params.IW)) {
          continue;
        }
        let x = input_load(((o.b * params.IC + o.ic0 + c) * params.IH + u32(ih)) * params.IW +
                           u32(iw));
        acc += x * weight_load(((o.oc * o.icpg + c) * params.KH + kh) * params.KW + kw);
      }
    }
  }
  output_store(i, conv_epilogue(acc, o.oc));
}
