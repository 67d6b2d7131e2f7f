// slice_copy: out[outer, c, inner] = input[outer, start + c * step, inner], the tensor
// seen as [outer, in_len, inner] around the sliced dim. 32-bit elements copied as bits.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  let inner = i % params.inner;
  let rest = i / params.inner;
  let c = rest % params.out_len;
  let outer = rest / params.out_len;
  output[i] = input[(outer * params.in_len + params.start + c * params.step) * params.inner + inner];
}
