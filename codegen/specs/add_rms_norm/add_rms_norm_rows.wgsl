// add_rms_norm_rows: one workgroup per row: sum = x + residual (stored), then
// out = sum * inverseSqrt(mean(sum^2) + eps) * weight, from the stored sum (a float16
// graph's rounded one, as the unfused rms_norm reads it).

fn write_row(row: u32, lid: u32) {
  let base = row * params.N;
  var squares = 0.0;
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    sum_store(base + c, x_load(base + c) + residual_load(base + c));
    let v = sum_load(base + c);
    squares += v * v;
  }
  partial[lid] = squares;
  let inv = inverseSqrt(workgroup_sum(lid) / f32(params.N) + params.eps);
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    output_store(base + c, sum_load(base + c) * inv * weight_load(c));
  }
}
