// norm_rows_vec4: norm_rows on rows of whole vec4s. A vec4 covers four affine entries
// (layer norm: inner == 1) or lies within one (group norm: inner % 4 == 0).

fn lane_sum(v: vec4<f32>) -> f32 {
  return (v.x + v.y) + (v.z + v.w);
}

fn write_row(row: u32, lid: u32) {
  let n4 = params.row_len / 4u;
  let base = row * n4;
  let n = f32(params.row_len);

  var sum = vec4<f32>(0.0);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    sum += input_load(base + c);
  }
  partial[lid] = lane_sum(sum);
  let row_mean = workgroup_sum(lid) / n;

  var squares = vec4<f32>(0.0);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    let d = input_load(base + c) - row_mean;
    squares += d * d;
  }
  partial[lid] = lane_sum(squares);
  let row_rstd = inverseSqrt(workgroup_sum(lid) / n + params.eps);

  let affine_base = (row % params.groups) * (params.row_len / params.inner);
  let step = select(0u, 1u, params.inner == 1u);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    let a = affine_base + (c * 4u) / params.inner;
    var y = (input_load(base + c) - row_mean) * row_rstd;
    if (params.has_weight != 0u) {
      y *= vec4<f32>(weight_load(a), weight_load(a + step), weight_load(a + 2u * step),
                     weight_load(a + 3u * step));
    }
    if (params.has_bias != 0u) {
      y += vec4<f32>(bias_load(a), bias_load(a + step), bias_load(a + 2u * step),
                     bias_load(a + 3u * step));
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
