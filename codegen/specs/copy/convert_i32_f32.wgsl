// convert_i32_f32: a numeric int32 <-> float32 conversion (int 2 becomes 2.0, never the
// bit pattern). TO_FLOAT picks the direction; both buffers are read as raw 32-bit words.
// float -> int truncates toward zero like torch (WGSL saturates out-of-range values).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
override TO_FLOAT: bool = true;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  let x = input[i];
  if (TO_FLOAT) {
    output[i] = bitcast<u32>(f32(bitcast<i32>(x)));
  } else {
    output[i] = bitcast<u32>(i32(bitcast<f32>(x)));
  }
}
