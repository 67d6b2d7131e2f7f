// The entry point of the kernels that give each row one invocation (composed into their
// modules by opgen), a row being a line of the kernel's view, contiguous or strided:
// write_line(line) for each line below params.num_rows, line from the grid's
// linear_index. each_row.wgsl gives a row a whole workgroup instead.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let line = linear_index(gid, num_workgroups);
  if (line < params.num_rows) {
    write_line(line);
  }
}
