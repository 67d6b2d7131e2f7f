// grid_priors: YOLO's anchor points, out[h * W + w] = ((w + offset) * stride,
// (h + offset) * stride) for every cell of an H x W feature map, in float32 as ExecuTorch's
// reference computes them (the cell index as a float, plus the offset, times the stride),
// stored through the output's view (float32, or float16 on the kernel's twins: each value
// rounded to half once).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let k = linear_index(gid, num_workgroups);
  if (k >= params.num_cells) {
    return;
  }
  let cell = vec2<f32>(f32(k % params.W), f32(k / params.W));
  output_store(k, (cell + params.offset) * params.stride);
}
