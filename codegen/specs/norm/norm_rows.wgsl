// norm_rows: one workgroup per contiguous row: mean, then the biased variance from the
// deviations (two passes, numerically stable), then (x - mean) * rstd * weight + bias.
// The affine entry of element c is (row % groups) * (row_len / inner) + c / inner.

fn write_row(row: u32, lid: u32) {
  let base = row * params.row_len;
  let n = f32(params.row_len);

  var sum = 0.0;
  for (var c = lid; c < params.row_len; c += WORKGROUP_SIZE_X) {
    sum += input_load(base + c);
  }
  partial[lid] = sum;
  let row_mean = workgroup_sum(lid) / n;

  var squares = 0.0;
  for (var c = lid; c < params.row_len; c += WORKGROUP_SIZE_X) {
    let d = input_load(base + c) - row_mean;
    squares += d * d;
  }
  partial[lid] = squares;
  let row_rstd = inverseSqrt(workgroup_sum(lid) / n + params.eps);

  let affine_base = (row % params.groups) * (params.row_len / params.inner);
  for (var c = lid; c < params.row_len; c += WORKGROUP_SIZE_X) {
    let a = affine_base + c / params.inner;
    var y = (input_load(base + c) - row_mean) * row_rstd;
    if (params.has_weight != 0u) {
      y *= weight_load(a);
    }
    if (params.has_bias != 0u) {
      y += bias_load(a);
    }
    output_store(base + c, y);
  }
  if (lid == 0u) {
    if (WRITE_MEAN) {
      mean_store(row, row_mean);
    }
    if (WRITE_RSTD) {
      rstd_store(row, row_rstd);
    }
  }
}
