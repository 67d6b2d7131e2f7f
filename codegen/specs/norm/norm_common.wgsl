// Shared by the norm kernels (composed into their modules by opgen; not a
// standalone module).

var<workgroup> partial: array<f32, WORKGROUP_SIZE_X>;

// Tree sum of `partial`; every invocation gets the total (the caller's next write to
// `partial` is safe: the last barrier orders it after every read).
fn workgroup_sum(lid: u32) -> f32 {
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid < stride) {
      partial[lid] += partial[lid + stride];
    }
  }
  workgroupBarrier();
  let total = partial[0];
  workgroupBarrier();
  return total;
}
