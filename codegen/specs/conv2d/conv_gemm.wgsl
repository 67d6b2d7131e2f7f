// Shared by the direct conv's GEMM kernels (composed into their modules by opgen,
// after conv_gemm_loads.wgsl): the tap-major walk over K and the split-K store. K step s
// is tap s / steps_per_tap and input channels from (s % steps_per_tap) * bk (the kernel's
// step); a step's im2col rows are channel planes shifted by one tap, so a loader finds its
// pixels' input offsets once per tap and then only adds a plane stride.

// A quad's window at one tap.
fn tap_window(q: PixelQuad, tap: u32) -> TapWindow {
  return window_at(q, i32(tap / params.KW * params.dH), i32(tap % params.KW * params.dW));
}

// The K steps [x, y) of split-K slice `slice`, for steps of bk input channels.
fn slice_steps(slice: u32, bk: u32) -> vec2<u32> {
  let total = params.KH * params.KW * ((params.IC + bk - 1u) / bk);
  return vec2<u32>(slice * total / params.split, (slice + 1u) * total / params.split);
}

// Output channel m at pixels n0..n0 + 3: through the epilogue into the output or, with K
// split, this slice's raw sums into its partial plane (conv2d_split_sum adds them up).
fn store_quad(m: u32, n0: u32, v: vec4<f32>, slice: u32) {
  let plane = params.OH * params.OW;
  let N = params.B * plane;
  if (m >= params.OC) {
    return;
  }
  for (var c = 0u; c < 4u; c++) {
    let n = n0 + c;
    if (n >= N) {
      return;
    }
    let i = (n / plane * params.OC + m) * plane + n % plane;
    if (params.split == 1u) {
      output_store(i, conv_epilogue(v[c], m));
    } else {
      partial[slice * N * params.OC + i] = v[c];
    }
  }
}
