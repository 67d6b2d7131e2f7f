// fused_ce_sum: the loss, the sum of the rows' terms: one workgroup, each invocation a
// strided partial sum, then a tree reduction (a fixed order: the same loss every run).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid3: vec3<u32>) {
  let lid = lid3.x;
  var local_sum = 0.0;
  for (var r = lid; r < params.num_rows; r += WORKGROUP_SIZE_X) {
    local_sum += row_loss[r];
  }
  partial[lid] = local_sum;
  let total = workgroup_sum(lid);
  if (lid == 0u) {
    loss[0] = total;
  }
}
