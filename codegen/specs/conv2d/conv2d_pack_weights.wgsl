// conv2d_pack_weights: weight [OC, IC, KH, KW] (TRANSPOSED: [IC, OC, KH, KW], groups 1) ->
// wpack [KH * KW][IC][ceil(OC / 4)] vec4s for the conv GEMMs: tap-major, 4 output channels
// per vec4, zero past OC. One invocation per vec4.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  let M4 = (params.OC + 3u) / 4u;
  let taps = params.KH * params.KW;
  if (i >= taps * params.IC * M4) {
    return;
  }
  let m = (i % M4) * 4u;
  let ic = (i / M4) % params.IC;
  let tap = i / (M4 * params.IC);
  var v = vec4<f32>();
  for (var j = 0u; j < 4u; j++) {
    if (m + j < params.OC) {
      v[j] = weight_load(weight_index(m + j, ic, tap));
    }
  }
  wpack_store(i, v);
}

// The weight of output channel oc, input channel ic at tap `tap`.
fn weight_index(oc: u32, ic: u32, tap: u32) -> u32 {
  let taps = params.KH * params.KW;
  if (TRANSPOSED) {
    return (ic * params.OC + oc) * taps + tap;
  }
  return (oc * params.IC + ic) * taps + tap;
}
