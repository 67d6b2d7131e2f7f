// gemm_small_scalar: gemm_small_tile.wgsl's 32x32 tiles with scalar loads
// (gemm_loads_scalar.wgsl), for row lengths that are not multiples of 4 (e.g. attention
// over 197 tokens: its scores have N = 197 columns, its context K = 197).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  M: u32,
  N: u32,
  K: u32,
  batch: u32,
  a_batch_stride: u32,
  b_batch_stride: u32,
  k_chunk: u32,
  split: u32,
  head_rows: u32,
  has_bias: u32,
  bias_stride_m: u32,
  bias_stride_n: u32,
  alpha: f32,
  beta: f32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> partial: array<f32>;
@group(0) @binding(5) var<storage, read_write> output: array<f32>;
override B_IS_NK: bool = false;
const WORKGROUP_SIZE_X: u32 = 8u;
const WORKGROUP_SIZE_Y: u32 = 8u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// Shared helpers (gemm_epilogue.wgsl).
// Shared by every GEMM kernel (emitted into their declaration blocks by opgen).

// alpha * (A @ B) + beta * bias, the bias broadcast by its strides (linear: beta = 1).
fn epilogue(acc: f32, m: u32, n: u32) -> f32 {
  var v = params.alpha * acc;
  if (params.has_bias != 0u) {
    v += params.beta * bias[m * params.bias_stride_m + n * params.bias_stride_n];
  }
  return v;
}

// The tiled kernels' output element of C[z][m][n] (gemm_tile.wgsl): row-major [batch, M, N].
fn out_index(z: u32, m: u32, n: u32) -> u32 {
  return (z * params.M + m) * params.N + n;
}
// Shared helpers (gemm_tile.wgsl).
// Shared by the tiled GEMM kernels (emitted into their declaration blocks by opgen): the
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
// by benchmarks/probe_sass.py; H200 figures in docs/performance.md): a `for k` loop over
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
    output[i] = epilogue(value, m, n);
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
// Shared helpers (gemm_loads_scalar.wgsl).
// Shared by the kernels that read A and B one value at a time (gemm_scalar,
// gemm_small_scalar; emitted into their declaration blocks by opgen): load_a and load_b
// for gemm_tile.wgsl and gemm_small_tile.wgsl, for any row length. Each vector's values
// are read one by one, those past a row's end are zero, and components are named, never
// indexed at runtime (an indexed vector may be spilled to memory).

// a[i..i + 3] and b[i..i + 3], the components from `valid` on zero
fn load4_a(i: u32, valid: u32) -> vec4<f32> {
  var v = vec4<f32>();
  if (valid > 0u) {
    v.x = a[i];
  }
  if (valid > 1u) {
    v.y = a[i + 1u];
  }
  if (valid > 2u) {
    v.z = a[i + 2u];
  }
  if (valid > 3u) {
    v.w = a[i + 3u];
  }
  return v;
}

fn load4_b(i: u32, valid: u32) -> vec4<f32> {
  var v = vec4<f32>();
  if (valid > 0u) {
    v.x = b[i];
  }
  if (valid > 1u) {
    v.y = b[i + 1u];
  }
  if (valid > 2u) {
    v.z = b[i + 2u];
  }
  if (valid > 3u) {
    v.w = b[i + 3u];
  }
  return v;
}
fn load_a(z: u32, m: u32, k: u32, end: u32) -> vec4<f32> {
  if (m >= params.M || k >= end) {
    return vec4<f32>();
  }
  return load4_a(z * params.a_batch_stride + m * params.K + k, end - k);
}

fn load_b(z: u32, r: u32, c: u32, end: u32) -> vec4<f32> {
  let base = z * params.b_batch_stride;
  if (B_IS_NK) {
    if (r >= params.N || c >= end) {
      return vec4<f32>();
    }
    return load4_b(base + r * params.K + c, end - c);
  }
  if (r >= end || c >= params.N) {
    return vec4<f32>();
  }
  return load4_b(base + r * params.N + c, params.N - c);
}
// Shared helpers (gemm_small_tile.wgsl).
// Shared by gemm_small and gemm_small_scalar (emitted into their declaration blocks by
// opgen): 32x32 output tiles, 4x4 per thread, for GEMMs whose 128x128 tiles would
// leave most of the GPU idle while 32x32 tiles fill it (few rows, e.g. ViT-B at batch 1:
// 196 x 768 x 768 in 168 tiles). Loaders, split-K store and epilogue are the dispatch's
// (gemm_loads_vec4.wgsl or gemm_loads_scalar.wgsl, gemm_tile.wgsl's store_quad,
// gemm_epilogue.wgsl).
//
// 8x8 threads; thread (x, y) owns rows 4y..4y+3 and columns 4x..4x+3. Each K step stages
// an 8 x 32 slice of A and of B in workgroup memory, k-major, 4 rows or columns per
// vec4, double-buffered like gemm_tile, but its global loads are issued two steps ahead
// (one barrier per step): a step of 64 threads computes too little to hide a load's
// latency in one (measured on the H200: 196 x 768 x 2304 0.048 -> 0.039 ms). As in
// gemm_tile, the step is written out as K_STEP calls of small_multiply_k and the loads are
// issued right after the barrier, so the driver neither rolls the k loop nor sinks the
// loads below the FMAs.

const SMALL_TILE: u32 = 32u;
const SMALL_STAGE: u32 = 64u;  // vec4s per staged slice (K_STEP * SMALL_TILE / 4)

var<workgroup> a_small: array<vec4<f32>, 128>;  // [buffer][k][m / 4]
var<workgroup> b_small: array<vec4<f32>, 128>;  // [buffer][k][n / 4]

// Thread tid loads A row tid / 2, k (tid % 2) * 4..+3; B likewise as [N][K], or as [K][N]
// row tid / 8, columns (tid % 8) * 4..+3.
fn small_load(z: u32, m0: u32, n0: u32, k0: u32, end: u32, tid: u32) -> Staged {
  let row = tid / 2u;
  let k = k0 + tid % 2u * 4u;
  var s: Staged;
  s.a = load_a(z, m0 + row, k, end);
  if (B_IS_NK) {
    s.b = load_b(z, n0 + row, k, end);
  } else {
    s.b = load_b(z, k0 + tid / 8u, n0 + tid % 8u * 4u, end);
  }
  return s;
}

fn small_store(s: Staged, buffer: u32, tid: u32) {
  let row = tid / 2u;
  let at = buffer + tid % 2u * 4u * (SMALL_TILE / 4u) + row / 4u;
  let lane = row % 4u;
  a_small[at][lane] = s.a.x;
  a_small[at + SMALL_TILE / 4u][lane] = s.a.y;
  a_small[at + SMALL_TILE / 2u][lane] = s.a.z;
  a_small[at + 3u * SMALL_TILE / 4u][lane] = s.a.w;
  if (B_IS_NK) {
    b_small[at][lane] = s.b.x;
    b_small[at + SMALL_TILE / 4u][lane] = s.b.y;
    b_small[at + SMALL_TILE / 2u][lane] = s.b.z;
    b_small[at + 3u * SMALL_TILE / 4u][lane] = s.b.w;
  } else {
    b_small[buffer + tid] = s.b;
  }
}

// This thread's 4 x 4 outputs (named vectors, kept in registers).
var<private> small_acc0: vec4<f32>;
var<private> small_acc1: vec4<f32>;
var<private> small_acc2: vec4<f32>;
var<private> small_acc3: vec4<f32>;

// One k of the staged slices (`row`: its first vec4) added into thread (x, y)'s outputs.
fn small_multiply_k(row: u32, x: u32, y: u32) {
  let a = a_small[row + y];
  let b = b_small[row + x];
  small_acc0 = fma(vec4<f32>(a.x), b, small_acc0);
  small_acc1 = fma(vec4<f32>(a.y), b, small_acc1);
  small_acc2 = fma(vec4<f32>(a.z), b, small_acc2);
  small_acc3 = fma(vec4<f32>(a.w), b, small_acc3);
}

fn gemm_small_tile(lid: vec3<u32>, wid: vec3<u32>) {
  let tid = lid.y * 8u + lid.x;
  let slice = wid.z % params.split;
  let z = wid.z / params.split;
  let m0 = wid.y * SMALL_TILE;
  let n0 = wid.x * SMALL_TILE;
  let k_begin = slice * params.k_chunk;
  let k_end = min(params.K, k_begin + params.k_chunk);
  if (k_begin < k_end) {
    small_store(small_load(z, m0, n0, k_begin, k_end, tid), 0u, tid);
  }
  // the next step's slices and the one after (past the end they are zeros)
  var next = small_load(z, m0, n0, k_begin + K_STEP, k_end, tid);
  var after = small_load(z, m0, n0, k_begin + 2u * K_STEP, k_end, tid);
  workgroupBarrier();
  var buffer = 0u;
  for (var k0 = k_begin; k0 < k_end; k0 += K_STEP) {
    small_multiply_k(buffer, lid.x, lid.y);
    small_multiply_k(buffer + SMALL_TILE / 4u, lid.x, lid.y);
    small_multiply_k(buffer + 2u * SMALL_TILE / 4u, lid.x, lid.y);
    small_multiply_k(buffer + 3u * SMALL_TILE / 4u, lid.x, lid.y);
    small_multiply_k(buffer + 4u * SMALL_TILE / 4u, lid.x, lid.y);
    small_multiply_k(buffer + 5u * SMALL_TILE / 4u, lid.x, lid.y);
    small_multiply_k(buffer + 6u * SMALL_TILE / 4u, lid.x, lid.y);
    small_multiply_k(buffer + 7u * SMALL_TILE / 4u, lid.x, lid.y);
    buffer = SMALL_STAGE - buffer;
    small_store(next, buffer, tid);
    next = after;
    workgroupBarrier();
    after = small_load(z, m0, n0, k0 + 3u * K_STEP, k_end, tid);
  }
  let top = m0 + 4u * lid.y;
  let left = n0 + 4u * lid.x;
  store_quad(z, slice, top, left, small_acc0);
  store_quad(z, slice, top + 1u, left, small_acc1);
  store_quad(z, slice, top + 2u, left, small_acc2);
  store_quad(z, slice, top + 3u, left, small_acc3);
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  gemm_small_tile(lid, wid);
}
