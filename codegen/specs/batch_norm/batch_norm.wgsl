// batch_norm (inference): y = (x - mean[c]) / sqrt(variance[c] + eps) * weight[c] + bias[c];
// an absent weight / bias (dummy binding, has_* = 0) means scale 1 / shift 0.
// Each invocation writes 4 vec4s, WORKGROUP_SIZE_X apart (all loads before the first
// store); a vec4 inside one channel plane looks its channel up once.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  C: u32,
  plane: u32,
  num_elements: u32,
  num_vec4: u32,
  eps: f32,
  has_weight: u32,
  has_bias: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> weight: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read> mean: array<f32>;
@group(0) @binding(5) var<storage, read> variance: array<f32>;
@group(0) @binding(6) var<storage, read_write> output: array<vec4<f32>>;
const WORKGROUP_SIZE_X: u32 = 128u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
const ITEMS_PER_INVOCATION: u32 = 4u;
// The invocation's first item; its item k is first + k * WORKGROUP_SIZE_X.
fn first_item(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  let lane = gid.x % WORKGROUP_SIZE_X;
  return (linear_index(gid, num_workgroups) - lane) * ITEMS_PER_INVOCATION + lane;
}
// @opgen-end declarations

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
  let x0 = input[i0];
  let x1 = input[min(i1, n - 1u)];
  let x2 = input[min(i2, n - 1u)];
  let x3 = input[min(i3, n - 1u)];
  output[i0] = normalize(i0, x0);
  if (i1 < n) {
    output[i1] = normalize(i1, x1);
  }
  if (i2 < n) {
    output[i2] = normalize(i2, x2);
  }
  if (i3 < n) {
    output[i3] = normalize(i3, x3);
  }
}

// Channel c's (mean, scale, shift): y = (x - mean) * scale + shift.
fn channel(c: u32) -> vec3<f32> {
  var scale = 1.0 / sqrt(variance[c] + params.eps);
  if (params.has_weight != 0u) {
    scale = scale * weight[c];
  }
  var shift = 0.0;
  if (params.has_bias != 0u) {
    shift = bias[c];
  }
  return vec3<f32>(mean[c], scale, shift);
}

// Elements 4v..4v + 3, whose input is x.
fn normalize(v: u32, x: vec4<f32>) -> vec4<f32> {
  let e0 = 4u * v;
  let plane_index = e0 / params.plane;
  if (e0 - plane_index * params.plane + 3u < params.plane) {  // one channel plane
    let k = channel(plane_index % params.C);
    return (x - k.x) * k.y + k.z;
  }
  var y = vec4<f32>();
  for (var j = 0u; j < 4u && e0 + j < params.num_elements; j++) {
    let k = channel((e0 + j) / params.plane % params.C);
    y[j] = (x[j] - k.x) * k.y + k.z;
  }
  return y;
}
