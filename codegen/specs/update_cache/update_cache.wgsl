// update_cache: cache[b, start_pos + s, h, d] = value[b, s, h, d]; the [1] placeholder
// output gets 0.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i == 0u) {
    output_store(0u, 0.0);
  }
  if (i >= params.num_elements) {
    return;
  }
  let r = i % params.inner;
  let bs = i / params.inner;
  let s = bs % params.S;
  let b = bs / params.S;
  cache_store((b * params.S_max + params.start_pos + s) * params.inner + r, value_load(i));
}
