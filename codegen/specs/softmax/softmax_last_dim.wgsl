// softmax_last_dim: one workgroup per contiguous row (softmax over the last dim): the row
// max and the sum of exp(x - max) are workgroup tree reductions.

fn write_row(row: u32, lid: u32) {
  if (params.N == 0u) {
    return;  // the whole workgroup: an empty row
  }
  let base = row * params.N;
  // the max starts from the row's first element: an all -inf row keeps max -inf, so
  // x - max is NaN as in torch (shifted: -inf with SAFE)
  var local_max = input_load(base);
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    local_max = max(local_max, input_load(base + c));
  }
  partial[lid] = local_max;
  let row_max = workgroup_reduce(lid, true);
  var local_sum = 0.0;
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    local_sum += exp_or_zero(shifted(input_load(base + c), row_max));
  }
  partial[lid] = local_sum;
  let row_sum = workgroup_reduce(lid, false);
  for (var c = lid; c < params.N; c += WORKGROUP_SIZE_X) {
    output_store(base + c, softmax_value(shifted(input_load(base + c), row_max), row_sum));
  }
}
