// The entry point of the elementwise kernels that map vec4s one to one (composed into
// their modules by opgen): each invocation maps its 4 vec4s (first_item(): WORKGROUP_SIZE_X
// apart) through the kernel's map_vec4(index, x). All loads are issued before the first
// store, so each invocation keeps 4 vec4s in flight. load_vec4 and store_vec4 come from
// vec4_views.wgsl (float tensors through the bindings' views, any float storage) or
// vec4_words.wgsl (the arrays as declared).

const_assert ITEMS_PER_INVOCATION == 4u;  // i0..i3 below

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i0 = first_item(gid, num_workgroups);
  let n = params.num_vec4;
  if (i0 >= n) {
    return;
  }
  let i1 = i0 + WORKGROUP_SIZE_X;
  let i2 = i1 + WORKGROUP_SIZE_X;
  let i3 = i2 + WORKGROUP_SIZE_X;
  // past the end: read the last vec4 again, store nothing
  let x0 = load_vec4(i0);
  let x1 = load_vec4(min(i1, n - 1u));
  let x2 = load_vec4(min(i2, n - 1u));
  let x3 = load_vec4(min(i3, n - 1u));
  store_vec4(i0, map_vec4(i0, x0));
  if (i1 < n) {
    store_vec4(i1, map_vec4(i1, x1));
  }
  if (i2 < n) {
    store_vec4(i2, map_vec4(i2, x2));
  }
  if (i3 < n) {
    store_vec4(i3, map_vec4(i3, x3));
  }
}
