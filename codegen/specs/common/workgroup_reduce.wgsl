// Tree reductions over the workgroup (shared by the row kernels of several ops; composed
// into their modules by opgen). Each invocation writes its own value to partial[lid],
// then every invocation calls the same function and gets the result; the last barrier
// lets the caller write `partial` again.

var<workgroup> partial: array<f32, WORKGROUP_SIZE_X>;

// The max of `partial` when take_max, else its sum.
fn workgroup_reduce(lid: u32, take_max: bool) -> f32 {
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid < stride) {
      let other = partial[lid + stride];
      partial[lid] = select(partial[lid] + other, max(partial[lid], other), take_max);
    }
  }
  workgroupBarrier();
  let result = partial[0];
  workgroupBarrier();
  return result;
}

fn workgroup_sum(lid: u32) -> f32 {
  return workgroup_reduce(lid, false);
}
