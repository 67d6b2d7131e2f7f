// strided_gather_vec4: strided_gather four elements at a time, where the innermost output
// dim reads its input dim contiguously (stride 1) and every stride and size on the way is
// a multiple of 4, so four neighbours come from one aligned input vec4.

fn dim_of(v: array<vec4<u32>, 2>, k: u32) -> u32 {
  return v[k / 4u][k % 4u];
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  var rest = i * 4u;  // the vec4's first element
  var src = 0u;
  for (var k = 7i; k >= 0 && rest != 0u; k--) {
    let size = dim_of(params.out_dims, u32(k));
    src += (rest % size % dim_of(params.in_mods, u32(k))) * dim_of(params.in_strides, u32(k));
    rest = rest / size;
  }
  output[i] = input[src / 4u];
}
