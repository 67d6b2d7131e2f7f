// gemv_nn: mm / bmm / addmm for a few rows (M <= 8) with B as [K, N] and K, N multiples
// of 4: bandwidth-bound, so B is read once, with vec4 loads along N. A workgroup owns 128
// columns (COLS column quads, one per lane of a warp-wide row of lanes) of one K slice;
// its K_LANES rows of lanes split the slice, four K rows (one vec4 of each A row) at a
// time, and their sums meet in workgroup memory. A's few values per K quad are the same
// for every lane of a row of lanes (a broadcast load). Workgroups cover 128 columns like
// the tiled route's, so the split-K let (slices, gemm_split_sum) serves both routes.
// Rows come in blocks of ROWS (workgroup y), so any M is correct (B is then read once
// per block: `opgen bench --force gemv_nn` can time it past the route's M <= 8).

const COLS: u32 = 32u;  // column quads per workgroup
const K_LANES: u32 = 8u;  // lanes along K per column quad (WORKGROUP_SIZE_X / COLS)
const ROWS: u32 = 8u;  // rows of A per workgroup, one accumulator each

var<workgroup> sums: array<vec4<f32>, 512>;  // [row of a pair][K lane][column quad]

// acc + A[m][k..k + 3] . B[k..k + 3][n..n + 3], the four K rows in order
fn quad_fma(x: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>, b2: vec4<f32>, b3: vec4<f32>,
            acc: vec4<f32>) -> vec4<f32> {
  return fma(vec4<f32>(x.w), b3, fma(vec4<f32>(x.z), b2,
             fma(vec4<f32>(x.y), b1, fma(vec4<f32>(x.x), b0, acc))));
}

// Adds the K lanes' sums of rows m and m + 1 and stores them (gemm_store.wgsl's store_quad:
// the result, or this slice's partial sums). Call from uniform control flow.
fn reduce_pair(m: u32, x: vec4<f32>, y: vec4<f32>, tid: u32, z: u32, slice: u32, n0: u32) {
  workgroupBarrier();  // the previous pair's sums have been read
  sums[tid] = x;
  sums[WORKGROUP_SIZE_X + tid] = y;
  workgroupBarrier();
  if (tid < 2u * COLS) {
    let row = tid / COLS;
    let col = tid % COLS;
    var total = vec4<f32>();
    for (var lane = 0u; lane < K_LANES; lane++) {
      total += sums[row * WORKGROUP_SIZE_X + lane * COLS + col];
    }
    store_quad(z, slice, m + row, n0 + 4u * col, total);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_index) tid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let slice = wid.z % params.split;
  let z = wid.z / params.split;
  let n4 = params.N / 4u;
  let k4 = params.K / 4u;
  let col = wid.x * COLS + tid % COLS;
  let lane = tid / COLS;
  let m0 = wid.y * ROWS;
  // this block's rows: uniform, so the reduce_pair calls below may hold barriers
  let rows = select(0u, params.M - m0, params.M > m0);
  let k_begin = slice * params.k_chunk;
  let k_end = min(params.K, k_begin + params.k_chunk);
  // lanes past N (or with no A rows) skip the loop; their sums are zero and never stored
  let k_stop = select(k_begin, k_end, col < n4 && rows > 0u);
  let b_base = z * (params.b_batch_stride / 4u) + col;  // B[z][0][4 col..] as a vec4 index
  let a_base = z * (params.a_batch_stride / 4u) + m0 * k4;  // A[z][m0][0..3]
  // Explicit accumulators rather than an array: they must stay in registers.
  var acc0 = vec4<f32>();
  var acc1 = vec4<f32>();
  var acc2 = vec4<f32>();
  var acc3 = vec4<f32>();
  var acc4 = vec4<f32>();
  var acc5 = vec4<f32>();
  var acc6 = vec4<f32>();
  var acc7 = vec4<f32>();
  for (var k = k_begin + 4u * lane; k < k_stop; k += 4u * K_LANES) {
    let at = b_base + k * n4;
    let b0 = b_load(at);
    let b1 = b_load(at + n4);
    let b2 = b_load(at + 2u * n4);
    let b3 = b_load(at + 3u * n4);
    let q = a_base + k / 4u;
    acc0 = quad_fma(a_load(q), b0, b1, b2, b3, acc0);
    if (rows > 1u) {
      acc1 = quad_fma(a_load(q + k4), b0, b1, b2, b3, acc1);
    }
    if (rows > 2u) {
      acc2 = quad_fma(a_load(q + 2u * k4), b0, b1, b2, b3, acc2);
    }
    if (rows > 3u) {
      acc3 = quad_fma(a_load(q + 3u * k4), b0, b1, b2, b3, acc3);
    }
    if (rows > 4u) {
      acc4 = quad_fma(a_load(q + 4u * k4), b0, b1, b2, b3, acc4);
    }
    if (rows > 5u) {
      acc5 = quad_fma(a_load(q + 5u * k4), b0, b1, b2, b3, acc5);
    }
    if (rows > 6u) {
      acc6 = quad_fma(a_load(q + 6u * k4), b0, b1, b2, b3, acc6);
    }
    if (rows > 7u) {
      acc7 = quad_fma(a_load(q + 7u * k4), b0, b1, b2, b3, acc7);
    }
  }
  let n0 = wid.x * COLS * 4u;
  reduce_pair(m0, acc0, acc1, tid, z, slice, n0);
  if (rows > 2u) {
    reduce_pair(m0 + 2u, acc2, acc3, tid, z, slice, n0);
  }
  if (rows > 4u) {
    reduce_pair(m0 + 4u, acc4, acc5, tid, z, slice, n0);
  }
  if (rows > 6u) {
    reduce_pair(m0 + 6u, acc6, acc7, tid, z, slice, n0);
  }
}
