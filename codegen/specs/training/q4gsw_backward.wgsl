// q4gsw_backward: d_x[m, k] = sum_n d_out[m, n] * W[n, k], W[n, k] = (nibble - 8) *
// scales[k / group_size, n]. One invocation per pair of outputs k = 2p, 2p + 1 (the two
// nibbles of one byte of each weight row).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_pairs) {
    return;
  }
  let half_k = params.K / 2u;
  let m = i / half_k;
  let k = 2u * (i % half_k);
  let group0 = (k / params.group_size) * params.N;
  let group1 = ((k + 1u) / params.group_size) * params.N;
  var acc = vec2<f32>(0.0);
  for (var n = 0u; n < params.N; n++) {
    let d = d_out[m * params.N + n];
    let w = vec2<f32>(f32(q4_weight(n * half_k, k)), f32(q4_weight(n * half_k, k + 1u)));
    acc += d * w * vec2<f32>(scales[group0 + n], scales[group1 + n]);
  }
  output[m * params.K + k] = acc.x;
  output[m * params.K + k + 1u] = acc.y;
}
