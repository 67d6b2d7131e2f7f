// batch_norm (inference): y = (x - mean[c]) / sqrt(variance[c] + eps) * weight[c] + bias[c];
// an absent weight / bias (dummy binding, has_* = 0) means scale 1 / shift 0.
// The entry point is ../common/map_vec4s.wgsl; a vec4 inside one channel plane looks its
// channel up once.

// Channel c's (mean, scale, shift): y = (x - mean) * scale + shift.
fn channel(c: u32) -> vec3<f32> {
  var scale = 1.0 / sqrt(variance_load(c) + params.eps);
  if (params.has_weight != 0u) {
    scale = scale * weight_load(c);
  }
  var shift = 0.0;
  if (params.has_bias != 0u) {
    shift = bias_load(c);
  }
  return vec3<f32>(mean_load(c), scale, shift);
}

// Elements 4v..4v + 3, whose input is x.
fn map_vec4(v: u32, x: vec4<f32>) -> vec4<f32> {
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
