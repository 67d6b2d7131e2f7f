// rms_norm_rows: one workgroup per row: out = x * inverseSqrt(mean(x^2) + eps) * weight.

fn write_row(row: u32, lid: u32) {
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
