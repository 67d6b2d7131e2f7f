// conv2d_gemm: direct conv (groups == 1) as an implicit-im2col GEMM over the tap-major
// weights of conv2d_pack_weights:
//   out[oc, n] = sum over taps (kh, kw) and channels ic of
//                wpack[tap][ic][oc] * input[b, ic, oh * sH - pH + kh * dH, ow * sW - pW + kw * dW]
// Each 16x16 workgroup computes a 64 (channels) x 64 (pixels) tile, 4x4 per thread, from
// vec4 tiles in workgroup memory, over the K steps of its split-K slice (workgroup z),
// loading a step's tiles into registers while the step before computes. The tile's
// constants and buffers are in conv_tile64.wgsl, the walk over K in conv_gemm.wgsl.

// This thread's outputs: output channel 4 * y + r in acc<r>, pixels 4 * x + 0..3 (named
// vectors, kept in registers).
var<private> acc0: vec4<f32>;
var<private> acc1: vec4<f32>;
var<private> acc2: vec4<f32>;
var<private> acc3: vec4<f32>;

// One k of the staged tiles (`row`: its first vec4) added into thread (x, y)'s outputs.
fn multiply_k(row: u32, x: u32, y: u32) {
  let av = a_tile[row + y];
  let bv = b_tile[row + x];
  acc0 += av.x * bv;
  acc1 += av.y * bv;
  acc2 += av.z * bv;
  acc3 += av.w * bv;
}

// Where a loader is in the walk over K: the tap, its first input channel and its window.
struct Walk {
  tap: u32,
  c0: u32,
  window: TapWindow,
}

fn next_step(w: Walk, quad: PixelQuad) -> Walk {
  if (w.c0 + BK < params.IC) {
    return Walk(w.tap, w.c0 + BK, w.window);
  }
  return Walk(w.tap + 1u, 0u, tap_window(quad, w.tap + 1u));
}

// As in the matmul spec's gemm_tile, the step is written out as BK calls of multiply_k (the
// driver does not unroll the loop), and the loads of the step after next are issued right
// after the barrier, where the driver cannot sink them below the FMAs.
@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let tid = lid.y * WORKGROUP_SIZE_X + lid.x;
  // Loader role, the same in both tiles: row ld_k (BK rows), vec4 column ld_c.
  let ld_k = tid / ROW4;
  let ld_c = tid % ROW4;
  let a_col = wid.y * (BM / 4u) + ld_c;
  let quad = pixel_quad(wid.x * BN + 4u * ld_c);

  let per_tap = (params.IC + BK - 1u) / BK;
  let steps = slice_steps(wid.z, BK);
  let first = steps.x / per_tap;
  var walk = Walk(first, steps.x % per_tap * BK, tap_window(quad, first));
  if (steps.x < steps.y) {
    a_tile[tid] = load_weights(walk.tap, walk.c0 + ld_k, a_col);
    b_tile[tid] = load_quad(walk.window, walk.c0 + ld_k);
  }
  // the next step's entries (zeros past the slice's last step)
  var a = vec4<f32>();
  var b = vec4<f32>();
  walk = next_step(walk, quad);
  if (steps.x + 1u < steps.y) {
    a = load_weights(walk.tap, walk.c0 + ld_k, a_col);
    b = load_quad(walk.window, walk.c0 + ld_k);
  }
  workgroupBarrier();
  var buffer = 0u;
  for (var s = steps.x; s < steps.y; s++) {
    multiply_k(buffer, lid.x, lid.y);
    multiply_k(buffer + ROW4, lid.x, lid.y);
    multiply_k(buffer + 2u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 3u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 4u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 5u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 6u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 7u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 8u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 9u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 10u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 11u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 12u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 13u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 14u * ROW4, lid.x, lid.y);
    multiply_k(buffer + 15u * ROW4, lid.x, lid.y);
    buffer = TILE - buffer;
    a_tile[buffer + tid] = a;
    b_tile[buffer + tid] = b;
    workgroupBarrier();
    if (s + 2u < steps.y) {
      walk = next_step(walk, quad);
      a = load_weights(walk.tap, walk.c0 + ld_k, a_col);
      b = load_quad(walk.window, walk.c0 + ld_k);
    }
  }

  let m = wid.y * BM + 4u * lid.y;
  let n0 = wid.x * BN + 4u * lid.x;
  store_quad(m, n0, acc0, wid.z);
  store_quad(m + 1u, n0, acc1, wid.z);
  store_quad(m + 2u, n0, acc2, wid.z);
  store_quad(m + 3u, n0, acc3, wid.z);
}
