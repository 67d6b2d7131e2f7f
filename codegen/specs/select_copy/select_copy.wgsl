// select_copy: out[o, r] = self[o, index, r] over the selected dim (outer o, inner r).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  let outer = i / params.inner;
  let r = i % params.inner;
  output[i] = input[(outer * params.size + params.index) * params.inner + r];
}
