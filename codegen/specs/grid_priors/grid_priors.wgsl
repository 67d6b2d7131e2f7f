// grid_priors: YOLO's anchor points, out[h * W + w] = ((w + offset) * stride,
// (h + offset) * stride) for every cell of an H x W feature map, in float32 as ExecuTorch's
// reference computes them (the cell index as a float, plus the offset, times the stride),
// stored through the output's view (float32, or float16 on the kernel's twins: each value
// rounded to half once).

fn write_element(k: u32) {
  let cell = vec2<f32>(f32(k % params.W), f32(k / params.W));
  output_store(k, (cell + params.offset) * params.stride);
}
