// softmax_last_dim: one workgroup per contiguous row (softmax over the last dim): the row
// max and the sum of exp(x - max) are workgroup tree reductions.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  let lid = lid3.x;
  // uniform control flow: the whole workgroup leaves together
  if (row >= params.num_lines || params.N == 0u) {
    return;
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
