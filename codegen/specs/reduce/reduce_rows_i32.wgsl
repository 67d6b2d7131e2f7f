// reduce_rows_i32: the integer sum of reduce_rows (int32 tensors, and int64 ones, which the
// graph holds as int32). One output element per workgroup, the sum of `reduce` input
// elements that lie `inner` apart (the input viewed as [outer, reduce, inner]). The words
// are added as u32: two's complement addition is the same bits as int32's, and u32
// overflow wraps by definition, so a sum past int32 wraps on every compiler (as torch's
// int64 sum cast back to int32 does) instead of being left to signed-overflow rules.

var<workgroup> partial: array<u32, WORKGROUP_SIZE_X>;

fn write_row(row: u32, lid: u32) {
  let outer = row / params.inner;
  let base = outer * params.reduce * params.inner + row % params.inner;
  // an empty reduce (reduce == 0) leaves every partial 0: torch's sum of nothing
  var acc = 0u;
  for (var k = lid; k < params.reduce; k += WORKGROUP_SIZE_X) {
    acc += input[base + k * params.inner];
  }
  partial[lid] = acc;
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid < stride) {
      partial[lid] += partial[lid + stride];
    }
  }
  if (lid == 0u) {
    output[row] = partial[0];
  }
}
