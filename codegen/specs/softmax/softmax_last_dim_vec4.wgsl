// softmax_last_dim_vec4: softmax_last_dim on rows of whole vec4s.

fn exp4(d: vec4<f32>) -> vec4<f32> {
  return vec4<f32>(exp_or_zero(d.x), exp_or_zero(d.y), exp_or_zero(d.z), exp_or_zero(d.w));
}

fn shifted4(x: vec4<f32>, row_max: f32) -> vec4<f32> {
  return vec4<f32>(shifted(x.x, row_max), shifted(x.y, row_max), shifted(x.z, row_max),
                   shifted(x.w, row_max));
}

fn softmax4(d: vec4<f32>, sum: f32) -> vec4<f32> {
  return vec4<f32>(softmax_value(d.x, sum), softmax_value(d.y, sum), softmax_value(d.z, sum),
                   softmax_value(d.w, sum));
}

fn write_row(row: u32, lid: u32) {
  if (params.N == 0u) {
    return;  // the whole workgroup: an empty row
  }
  let n4 = params.N / 4u;
  let base = row * n4;
  // from the row's first element, as softmax_last_dim
  var local_max = vec4<f32>(input_load(base).x);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    local_max = max(local_max, input_load(base + c));
  }
  partial[lid] = max(max(local_max.x, local_max.y), max(local_max.z, local_max.w));
  let row_max = workgroup_reduce(lid, true);
  var local_sum = vec4<f32>(0.0);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    local_sum += exp4(shifted4(input_load(base + c), row_max));
  }
  partial[lid] = (local_sum.x + local_sum.y) + (local_sum.z + local_sum.w);
  let row_sum = workgroup_reduce(lid, false);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    output_store(base + c, softmax4(shifted4(input_load(base + c), row_max), row_sum));
  }
}
