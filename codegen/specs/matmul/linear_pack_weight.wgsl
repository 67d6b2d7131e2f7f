// linear_pack_weight: linear's weight [N, K] -> wpack [K][N / 4] vec4s (B as [K, N] for
// the vec4 GEMM routes; N % 4 == 0). One invocation per vec4: it gathers four weight rows'
// column k. A model runs it once, at load.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  let N4 = params.N / 4u;
  if (i >= params.K * N4) {
    return;
  }
  let k = i / N4;
  let w = (i % N4) * 4u * params.K + k;  // weight[n][k], n = the quad's first row
  wpack_store(i, vec4<f32>(weight_load(w), weight_load(w + params.K),
                           weight_load(w + 2u * params.K), weight_load(w + 3u * params.K)));
}
