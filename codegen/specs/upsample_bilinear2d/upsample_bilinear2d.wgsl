// upsample_bilinear2d: each output pixel interpolates its four source neighbours, the
// source index as ATen's area_pixel_compute_source_index (scales computed on the host).

// The source coordinate of output index `dst`, and the index of its first neighbour.
fn source_index(scale: f32, dst: u32) -> f32 {
  if (params.align_corners != 0u) {
    return scale * f32(dst);
  }
  return max(scale * (f32(dst) + 0.5) - 0.5, 0.0);
}

fn write_element(i: u32) {
  let ow = i % params.OW;
  let oh = (i / params.OW) % params.OH;
  let plane = i / (params.OW * params.OH);

  let h = source_index(params.scale_h, oh);
  let h0 = min(u32(h), params.IH - 1u);
  let h1 = min(h0 + 1u, params.IH - 1u);
  let lh = h - f32(h0);
  let w = source_index(params.scale_w, ow);
  let w0 = min(u32(w), params.IW - 1u);
  let w1 = min(w0 + 1u, params.IW - 1u);
  let lw = w - f32(w0);

  let base = plane * params.IH * params.IW;
  let top = (1.0 - lw) * input_load(base + h0 * params.IW + w0) +
            lw * input_load(base + h0 * params.IW + w1);
  let bottom = (1.0 - lw) * input_load(base + h1 * params.IW + w0) +
               lw * input_load(base + h1 * params.IW + w1);
  output_store(i, (1.0 - lh) * top + lh * bottom);
}
