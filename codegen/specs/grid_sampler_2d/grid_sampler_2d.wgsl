// grid_sampler_2d: out[n, c, h, w] samples input[n, c] at grid[n, h, w] = (x, y) in [-1, 1]
// (-1 the left/top edge), one invocation per output pixel, every channel. As torch's CPU
// kernel computes it:
// - unnormalize: (g + 1) * (size - 1) / 2 (ALIGN_CORNERS), else (g + 1) * size / 2 - 0.5;
// - PADDING 1 (border) clips to [0, size - 1]; 2 (reflection) folds the coordinate back
//   into the image, then clips; a NaN coordinate clips to 0. 0 (zeros) leaves it;
// - bilinear: the four neighbours, a neighbour outside the image reads 0, weighted
//   (1 - dx)(1 - dy), dx(1 - dy), (1 - dx)dy, dx dy and summed in that order;
// - NEAREST: the neighbour at the coordinate rounded half to even, 0 outside the image.
// NaN tests are on the bits: shader compilers may fold x != x. The tensors are read and
// written through views, in f32 (float32, or float16 on the kernel's twins: the grid and
// the image widened exactly, each output rounded to half once).

const PADDING_ZEROS: u32 = 0u;
const PADDING_REFLECTION: u32 = 2u;

fn is_nan(v: f32) -> bool {
  return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}

// The source coordinate, in pixels, of grid value g along a dim of `size` pixels.
fn source_coordinate(g: f32, size: u32) -> f32 {
  let n = f32(size);
  var x: f32;
  if (ALIGN_CORNERS) {
    x = (g + 1.0) * ((n - 1.0) / 2.0);
  } else {
    x = (g + 1.0) * (n / 2.0) - 0.5;
  }
  if (PADDING == PADDING_ZEROS) {
    return x;
  }
  if (PADDING == PADDING_REFLECTION) {
    // fold |x - low| into [0, span] by a whole number of double spans, then mirror
    let twice_span = select(2.0 * n, 2.0 * (n - 1.0), ALIGN_CORNERS);
    if (twice_span == 0.0) {
      x = 0.0;
    } else {
      let shift = select(0.5, 0.0, ALIGN_CORNERS);
      let a = abs(x + shift);
      let extra = a - trunc(a / twice_span) * twice_span;
      let mirrored = twice_span - extra;
      x = select(mirrored, extra, extra < mirrored) - shift;
    }
  }
  // clip to the image; NaN (a NaN or infinite grid value) clips to 0
  return select(clamp(x, 0.0, n - 1.0), 0.0, is_nan(x));
}

// input[plane, y, x], or 0 outside the image (x, y whole numbers as floats; NaN is outside)
fn pixel(plane: u32, x: f32, y: f32) -> f32 {
  if (!(x > -1.0 && x < f32(params.IW) && y > -1.0 && y < f32(params.IH))) {
    return 0.0;
  }
  return input_load((plane * params.IH + u32(y)) * params.IW + u32(x));
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let p = linear_index(gid, num_workgroups);  // n * OH * OW + h * OW + w
  if (p >= params.num_pixels) {
    return;
  }
  let plane_size = params.OH * params.OW;
  let n = p / plane_size;
  let hw = p % plane_size;
  let g = grid_load(p);
  let x = source_coordinate(g.x, params.IW);
  let y = source_coordinate(g.y, params.IH);
  if (NEAREST) {
    let xr = round(x);
    let yr = round(y);
    for (var c = 0u; c < params.C; c++) {
      output_store((n * params.C + c) * plane_size + hw, pixel(n * params.C + c, xr, yr));
    }
    return;
  }
  let x_w = floor(x);
  let y_n = floor(y);
  let dx = x - x_w;
  let dy = y - y_n;
  let nw = (1.0 - dy) * (1.0 - dx);
  let ne = (1.0 - dy) * dx;
  let sw = dy * (1.0 - dx);
  let se = dy * dx;
  for (var c = 0u; c < params.C; c++) {
    let plane = n * params.C + c;
    let top = pixel(plane, x_w, y_n) * nw + pixel(plane, x_w + 1.0, y_n) * ne;
    output_store(plane * plane_size + hw, top + pixel(plane, x_w, y_n + 1.0) * sw +
                                          pixel(plane, x_w + 1.0, y_n + 1.0) * se);
  }
}
