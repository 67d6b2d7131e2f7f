// rms_norm_rows: one workgroup per row: out = x * inverseSqrt(mean(x^2) + eps) * weight.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  let lid = lid3.x;
  // uniform control flow: the whole workgroup leaves together
  if (row >= params.num_rows) {
    return;
  }
  let base = row * params.N;
  var sum = 0.0;
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    let v = input_load(base + c);
    sum += v * v;
  }
  partial[lid] = sum;
  let inv = inverseSqrt(workgroup_sum(lid) / f32(params.N) + params.eps);
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    output_store(base + c, input_load(base + c) * inv * weight_load(c));
  }
}
