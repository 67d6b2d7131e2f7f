// batch_norm (inference): y = (x - mean[c]) / sqrt(variance[c] + eps) * weight[c] + bias[c];
// an absent weight / bias (dummy binding, has_* = 0) means scale 1 / shift 0.
// Each invocation writes 4 vec4s, WORKGROUP_SIZE_X apart (all loads before the first
// store); a vec4 inside one channel plane looks its channel up once.

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
