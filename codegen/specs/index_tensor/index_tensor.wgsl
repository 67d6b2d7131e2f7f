// index_tensor: out[e] = self[source_index(e)] (index_source.wgsl), LANES words per
// invocation: one, or (index_tensor_vec4) a vec4 where self's last dim is kept and a
// multiple of 4, so a vec4 of the output reads one aligned vec4 of the input.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  output[i] = input[source_index(i * LANES) / LANES];
}
