// softmax_rows: in-place, numerically stable softmax over each row of attn: one workgroup
// per row; the row max is subtracted before exp, then the row sum divides.

fn write_row(row: u32, lid: u32) {
  let base = row * params.Skv;
  var local_max = -3.4e38;
  for (var c = lid; c < params.Skv; c += WORKGROUP_SIZE_X) {
    local_max = max(local_max, attn[base + c]);
  }
  partial[lid] = local_max;
  let row_max = workgroup_reduce(lid, true);
  var local_sum = 0.0;
  for (var c = lid; c < params.Skv; c += WORKGROUP_SIZE_X) {
    let e = exp(attn[base + c] - row_max);
    attn[base + c] = e;
    local_sum += e;
  }
  partial[lid] = local_sum;
  let row_sum = workgroup_reduce(lid, false);
  for (var c = lid; c < params.Skv; c += WORKGROUP_SIZE_X) {
    attn[base + c] = attn[base + c] / row_sum;
  }
}
