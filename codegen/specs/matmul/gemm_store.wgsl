// Shared by the tiled GEMM kernels (gemm_tile.wgsl, gemm_small_tile.wgsl, gemv_nn and
// conv2d_gemm128; composed into their modules by opgen): the store of four output columns,
// as the result or, with split K, as this slice's partial sums. The kernel supplies
// epilogue(value, m, n) and out_index(z, m, n): the output element of C[z][m][n].
//
// Split K: slice s of a tile sums K steps [s * k_chunk, (s + 1) * k_chunk) into partial,
// laid out as the output's elements, one slice after another, for gemm_split_sum to add.

// Columns n..n + 3 of row m: the result, or with split-K this slice's partial sums.
fn store_quad(z: u32, slice: u32, m: u32, n: u32, v: vec4<f32>) {
  if (m >= params.M) {
    return;
  }
  store_one(z, slice, m, n, v.x);
  store_one(z, slice, m, n + 1u, v.y);
  store_one(z, slice, m, n + 2u, v.z);
  store_one(z, slice, m, n + 3u, v.w);
}

fn store_one(z: u32, slice: u32, m: u32, n: u32, value: f32) {
  if (n >= params.N) {
    return;
  }
  let i = out_index(z, m, n);
  if (params.split > 1u) {
    partial[slice * params.batch * params.M * params.N + i] = value;
  } else {
    output_store(i, epilogue(value, m, n));
  }
}
