// update_cache: cache[b, start_pos + s, h, d] = value[b, s, h, d]; the [1] placeholder
// output gets 0.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  S: u32,
  S_max: u32,
  inner: u32,
  start_pos: u32,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> value: array<f32>;
@group(0) @binding(2) var<storage, read_write> cache: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
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
  if (i == 0u) {
    output[0] = 0.0;
  }
  if (i >= params.num_elements) {
    return;
  }
  let r = i % params.inner;
  let bs = i / params.inner;
  let s = bs % params.S;
  let b = bs / params.S;
  cache[(b * params.S_max + params.start_pos + s) * params.inner + r] = value[i];
}
