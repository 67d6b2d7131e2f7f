// The entry point of the kernels that write one 4-byte word (or one vec4) of their output
// per invocation, packed elements such as int8 quads or int4 pairs (composed into their
// modules by opgen): write_word(w) for each w below params.num_words, w from the grid's
// linear_index.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (w < params.num_words) {
    write_word(w);
  }
}
