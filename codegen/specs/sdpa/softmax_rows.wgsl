// softmax_rows: in-place, numerically stable softmax over each row of attn: one workgroup
// per row; the row max is subtracted before exp, then the row sum divides.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  let lid = lid3.x;
  // uniform control flow: the whole workgroup leaves together
  if (row >= params.num_rows) {
    return;
  }
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
