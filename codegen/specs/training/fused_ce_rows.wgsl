// fused_ce_rows: one workgroup per row of logits: the row max and sum of exp(x - max) as
// workgroup reductions, then the row's gradient (softmax - onehot) / n_valid and its loss
// term (logsumexp - logits[label]) / n_valid; a negative label gives zeros, a label past
// the classes NaN.

fn write_row(row: u32, lid: u32) {
  let base = row * params.C;
  var local_max = -3.4e38;
  for (var c = lid; c < params.C; c += WORKGROUP_SIZE_X) {
    local_max = max(local_max, logits[base + c]);
  }
  partial[lid] = local_max;
  let row_max = workgroup_reduce(lid, true);
  var local_sum = 0.0;
  for (var c = lid; c < params.C; c += WORKGROUP_SIZE_X) {
    local_sum += exp(logits[base + c] - row_max);
  }
  partial[lid] = local_sum;
  let row_sum = workgroup_reduce(lid, false);

  let label = labels[row];
  let ignored = label < 0;
  let bad = label >= i32(params.C);
  let nan = quiet_nan(params.C);
  for (var c = lid; c < params.C; c += WORKGROUP_SIZE_X) {
    let p = exp(logits[base + c] - row_max) / row_sum;
    let g = (p - select(0.0, 1.0, i32(c) == label)) * params.inv_n_valid;
    dlogits[base + c] = select(select(g, nan, bad), 0.0, ignored);
  }
  if (lid == 0u) {
    var term = 0.0;
    if (bad) {
      term = nan;
    } else if (!ignored) {
      let lse = row_max + log(row_sum);
      term = (lse - logits[base + u32(label)]) * params.inv_n_valid;
    }
    row_loss[row] = term;
  }
}

// A quiet NaN made at run time from any runtime value: WGSL rejects a NaN constant (Tint:
// "value nan cannot be represented as 'f32'").
fn quiet_nan(any: u32) -> f32 {
  return bitcast<f32>(0x7fc00000u | (any & 0u));
}
