// slice_scatter: one 32-bit word per invocation (a float32 or int32 element, or four bools
// of an inner block of whole words), from src inside the slice, else from self.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let e = linear_index(gid, num_workgroups);
  if (e >= params.num_elements) {
    return;
  }
  let k = src_offset(e);
  if (k == NOT_IN_SLICE) {
    output[e] = input[e];
  } else {
    output[e] = src[k];
  }
}
