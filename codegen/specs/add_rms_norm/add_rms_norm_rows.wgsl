// add_rms_norm_rows: one workgroup per row: sum = x + residual (stored), then
// out = sum * inverseSqrt(mean(sum^2) + eps) * weight, from the stored sum (a float16
// graph's rounded one, as the unfused rms_norm reads it).
//
// A thread holds its first PER_THREAD columns (lid, lid + 256, ...) in registers, each
// pass's loads issued before any arithmetic: a decode row of 2,048 costs three load
// latencies, not one per column (a loop that waited on each column's loads made this a
// 10.8 us dispatch on the H100). Columns past PER_THREAD * 256 take the plain loop.

const PER_THREAD: u32 = 8u;

fn write_row(row: u32, lid: u32) {
  let base = row * params.N;
  let last = params.N - 1u;
  var v: array<f32, PER_THREAD>;
  for (var i = 0u; i < PER_THREAD; i++) {
    let c = min(lid + i * WORKGROUP_SIZE_X, last);  // past N: a valid column, not stored
    v[i] = x_load(base + c) + residual_load(base + c);
  }
  for (var i = 0u; i < PER_THREAD; i++) {
    let c = lid + i * WORKGROUP_SIZE_X;
    if (c < params.N) {
      sum_store(base + c, v[i]);
    }
  }
  var squares = 0.0;
  for (var i = 0u; i < PER_THREAD; i++) {
    let c = lid + i * WORKGROUP_SIZE_X;
    v[i] = select(0.0, sum_load(base + min(c, last)), c < params.N);
    squares += v[i] * v[i];
  }
  for (var c = lid + PER_THREAD * WORKGROUP_SIZE_X; c < params.N; c += WORKGROUP_SIZE_X) {
    sum_store(base + c, x_load(base + c) + residual_load(base + c));
    let s = sum_load(base + c);
    squares += s * s;
  }
  partial[lid] = squares;
  let inv = inverseSqrt(workgroup_sum(lid) / f32(params.N) + params.eps);
  for (var i = 0u; i < PER_THREAD; i++) {
    let c = lid + i * WORKGROUP_SIZE_X;
    if (c < params.N) {
      output_store(base + c, v[i] * inv * weight_load(c));
    }
  }
  for (var c = lid + PER_THREAD * WORKGROUP_SIZE_X; c < params.N; c += WORKGROUP_SIZE_X) {
    output_store(base + c, sum_load(base + c) * inv * weight_load(c));
  }
}
