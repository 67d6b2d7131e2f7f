// Shared by the tiled GEMM kernels (composed into their modules by opgen): the
// walk of one 128x128 output tile over its K slice, the split-K store and the epilogue.
// The kernel supplies load_a(z, m, k, end) (A[z][m][k..k + 3]) and load_b(z, r, c, end)
// (B_IS_NK: W[z][n = r][k = c..c + 3], else B[z][k = r][n = c..c + 3]), zeros outside,
// epilogue(value, m, n) and out_index(z, m, n): the output element of C[z][m][n].
//
// Split K: slice s of a tile sums K steps [s * k_chunk, (s + 1) * k_chunk) into partial,
// laid out as the output's elements from row head_rows on, one slice after another, for
// gemm_split_sum to add. Tiles whose rows start below head_rows take all of K in slice 0
// and store the result themselves (the other slices return at once): with head_rows > 0
// (one matrix, its tiles a round of workgroups and a short tail of tile rows) only the
// tail's tiles are split, over the SMs the round leaves idle.
//
// 16x16 threads; thread (x, y) owns output rows 4y..4y+3 and 64+4y..64+4y+3 and columns
// 4x..4x+3 and 64+4x..64+4x+3: eight rows of two vec4s, acc<row>_<column half>. Each K
// step stages an 8 x 128 slice of A and of B in workgroup memory, k-major, 4 rows or
// columns per vec4; the next step's slices are loaded into registers while this one
// computes, so one barrier per step suffices (two buffers of each: 16 KiB, WebGPU's
// default workgroup storage limit).
//
// How the K loop is written decides what the driver makes of it (NVIDIA's code read back
// by tools/probes/probe_sass.py; H200 figures in docs/performance.md): a `for k` loop over
// the step is not unrolled, so each k waits for its workgroup loads; the step is written
// out as K_STEP calls of multiply_k instead, on private accumulators. The loads of the
// step after next are issued right after the barrier, unconditionally (past the end they
// are zeros): loads under an `if`, or before the FMAs in the same block, were moved below
// the FMAs, where nothing hides their latency. Together: 0.71x to 0.90x cuBLAS at 4096³.

const TILE: u32 = 128u;
const K_STEP: u32 = 8u;
const STAGE: u32 = 256u;  // vec4s per staged slice (K_STEP * TILE / 4)

var<workgroup> a_tile: array<vec4<f32>, 512>;  // [buffer][k][m / 4]
var<workgroup> b_tile: array<vec4<f32>, 512>;  // [buffer][k][n / 4]

struct Staged {
  a: vec4<f32>,
  b: vec4<f32>,
}

// Thread tid loads A row tid / 2, k (tid % 2) * 4..+3; B likewise as [N][K], or as [K][N]
// row tid / 32, columns (tid % 32) * 4..+3.
fn stage_load(z: u32, m0: u32, n0: u32, k0: u32, end: u32, tid: u32) -> Staged {
  let row = tid / 2u;
  let k = k0 + tid % 2u * 4u;
  var s: Staged;
  s.a = load_a(z, m0 + row, k, end);
  if (B_IS_NK) {
    s.b = load_b(z, n0 + row, k, end);
  } else {
    s.b = load_b(z, k0 + tid / 32u, n0 + tid % 32u * 4u, end);
  }
  return s;
}

fn stage_store(s: Staged, buffer: u32, tid: u32) {
  // Components by name, never by a runtime index: an indexed vector may be spilled to
  // memory (measured: the indexed form ran at 0.6x on the H200).
  let row = tid / 2u;
  let at = buffer + tid % 2u * 4u * (TILE / 4u) + row / 4u;
  let lane = row % 4u;
  a_tile[at][lane] = s.a.x;
  a_tile[at + TILE / 4u][lane] = s.a.y;
  a_tile[at + TILE / 2u][lane] = s.a.z;
  a_tile[at + 3u * TILE / 4u][lane] = s.a.w;
  if (B_IS_NK) {
    b_tile[at][lane] = s.b.x;
    b_tile[at + TILE / 4u][lane] = s.b.y;
    b_tile[at + TILE / 2u][lane] = s.b.z;
    b_tile[at + 3u * TILE / 4u][lane] = s.b.w;
  } else {
    b_tile[buffer + tid] = s.b;
  }
}

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
  if (params.split > 1u && m >= params.head_rows) {
    let first = params.head_rows * params.N;
    partial[slice * (params.batch * params.M * params.N - first) + i - first] = value;
  } else {
    output_store(i, epilogue(value, m, n));
  }
}

// This thread's 8 x 8 outputs. Named vectors, never an array: they must stay in registers.
var<private> acc0_0: vec4<f32>;
var<private> acc0_1: vec4<f32>;
var<private> acc1_0: vec4<f32>;
var<private> acc1_1: vec4<f32>;
var<private> acc2_0: vec4<f32>;
var<private> acc2_1: vec4<f32>;
var<private> acc3_0: vec4<f32>;
var<private> acc3_1: vec4<f32>;
var<private> acc4_0: vec4<f32>;
var<private> acc4_1: vec4<f32>;
var<private> acc5_0: vec4<f32>;
var<private> acc5_1: vec4<f32>;
var<private> acc6_0: vec4<f32>;
var<private> acc6_1: vec4<f32>;
var<private> acc7_0: vec4<f32>;
var<private> acc7_1: vec4<f32>;

// One k of the staged slices (`row`: its first vec4): the outer product of thread (x, y)'s
// A and B quads added into its accumulators.
fn multiply_k(row: u32, x: u32, y: u32) {
  let a0 = a_tile[row + y];
  let a1 = a_tile[row + y + 16u];
  let b0 = b_tile[row + x];
  let b1 = b_tile[row + x + 16u];
  acc0_0 = fma(vec4<f32>(a0.x), b0, acc0_0);
  acc0_1 = fma(vec4<f32>(a0.x), b1, acc0_1);
  acc1_0 = fma(vec4<f32>(a0.y), b0, acc1_0);
  acc1_1 = fma(vec4<f32>(a0.y), b1, acc1_1);
  acc2_0 = fma(vec4<f32>(a0.z), b0, acc2_0);
  acc2_1 = fma(vec4<f32>(a0.z), b1, acc2_1);
  acc3_0 = fma(vec4<f32>(a0.w), b0, acc3_0);
  acc3_1 = fma(vec4<f32>(a0.w), b1, acc3_1);
  acc4_0 = fma(vec4<f32>(a1.x), b0, acc4_0);
  acc4_1 = fma(vec4<f32>(a1.x), b1, acc4_1);
  acc5_0 = fma(vec4<f32>(a1.y), b0, acc5_0);
  acc5_1 = fma(vec4<f32>(a1.y), b1, acc5_1);
  acc6_0 = fma(vec4<f32>(a1.z), b0, acc6_0);
  acc6_1 = fma(vec4<f32>(a1.z), b1, acc6_1);
  acc7_0 = fma(vec4<f32>(a1.w), b0, acc7_0);
  acc7_1 = fma(vec4<f32>(a1.w), b1, acc7_1);
}

fn gemm_tile(lid: vec3<u32>, wid: vec3<u32>) {
  let tid = lid.y * 16u + lid.x;
  let slice = wid.z % params.split;
  let z = wid.z / params.split;
  let m0 = wid.y * TILE;
  let n0 = wid.x * TILE;
  let whole = m0 < params.head_rows;
  if (whole && slice > 0u) {
    return;  // the whole workgroup: m0 is uniform
  }
  let k_begin = select(slice * params.k_chunk, 0u, whole);
  let k_end = select(min(params.K, k_begin + params.k_chunk), params.K, whole);
  if (k_begin < k_end) {
    stage_store(stage_load(z, m0, n0, k_begin, k_end, tid), 0u, tid);
  }
  workgroupBarrier();
  var buffer = 0u;
  var next = stage_load(z, m0, n0, k_begin + K_STEP, k_end, tid);
  for (var k0 = k_begin; k0 < k_end; k0 += K_STEP) {
    multiply_k(buffer, lid.x, lid.y);
    multiply_k(buffer + TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 2u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 3u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 4u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 5u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 6u * TILE / 4u, lid.x, lid.y);
    multiply_k(buffer + 7u * TILE / 4u, lid.x, lid.y);
    buffer = STAGE - buffer;
    stage_store(next, buffer, tid);
    workgroupBarrier();
    next = stage_load(z, m0, n0, k0 + 2u * K_STEP, k_end, tid);
  }
  let top = m0 + 4u * lid.y;
  let bottom = top + TILE / 2u;
  let left = n0 + 4u * lid.x;
  let right = left + TILE / 2u;
  store_quad(z, slice, top, left, acc0_0);
  store_quad(z, slice, top, right, acc0_1);
  store_quad(z, slice, top + 1u, left, acc1_0);
  store_quad(z, slice, top + 1u, right, acc1_1);
  store_quad(z, slice, top + 2u, left, acc2_0);
  store_quad(z, slice, top + 2u, right, acc2_1);
  store_quad(z, slice, top + 3u, left, acc3_0);
  store_quad(z, slice, top + 3u, right, acc3_1);
  store_quad(z, slice, bottom, left, acc4_0);
  store_quad(z, slice, bottom, right, acc4_1);
  store_quad(z, slice, bottom + 1u, left, acc5_0);
  store_quad(z, slice, bottom + 1u, right, acc5_1);
  store_quad(z, slice, bottom + 2u, left, acc6_0);
  store_quad(z, slice, bottom + 2u, right, acc6_1);
  store_quad(z, slice, bottom + 3u, left, acc7_0);
  store_quad(z, slice, bottom + 3u, right, acc7_1);
}
