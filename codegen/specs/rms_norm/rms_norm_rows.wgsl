// rms_norm_rows: one workgroup per row: out = x * inverseSqrt(mean(x^2) + eps) * weight.
//
// A thread holds its first PER_THREAD columns (lid, lid + 256, ...) in registers, loaded
// before any arithmetic, as add_rms_norm_rows does; columns past PER_THREAD * 256 take the
// plain loop.

const PER_THREAD: u32 = 8u;

fn write_row(row: u32, lid: u32) {
  let base = row * params.N;
  var v: array<f32, PER_THREAD>;
  var sum = 0.0;
  for (var i = 0u; i < PER_THREAD; i++) {
    let c = lid + i * WORKGROUP_SIZE_X;
    v[i] = select(0.0, input_load(base + min(c, params.N - 1u)), c < params.N);
    sum += v[i] * v[i];
  }
  for (var c = lid + PER_THREAD * WORKGROUP_SIZE_X; c < params.N; c += WORKGROUP_SIZE_X) {
    let x = input_load(base + c);
    sum += x * x;
  }
  partial[lid] = sum;
  let inv = inverseSqrt(workgroup_sum(lid) / f32(params.N) + params.eps);
  for (var i = 0u; i < PER_THREAD; i++) {
    let c = lid + i * WORKGROUP_SIZE_X;
    if (c < params.N) {
      output_store(base + c, v[i] * inv * weight_load(c));
    }
  }
  for (var c = lid + PER_THREAD * WORKGROUP_SIZE_X; c < params.N; c += WORKGROUP_SIZE_X) {
    output_store(base + c, input_load(base + c) * inv * weight_load(c));
  }
}
