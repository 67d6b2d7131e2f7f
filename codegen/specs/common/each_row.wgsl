// The entry point of the kernels that give each row one workgroup (composed into their
// modules by opgen): write_row(row, lid) for each row below params.num_rows, row from the
// grid's row_index, lid the invocation's index in the workgroup. The whole workgroup takes
// the same branch, so write_row's barriers stay in uniform control flow.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  if (row < params.num_rows) {
    write_row(row, lid.x);
  }
}
