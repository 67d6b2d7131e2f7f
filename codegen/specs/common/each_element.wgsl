// The entry point of the kernels that compute one unit of their output per invocation (an
// element, or the word or vec4 their comment names; composed into their modules by opgen):
// write_element(i) for each i below params.num_elements, i from the grid's linear_index.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i < params.num_elements) {
    write_element(i);
  }
}
