// Shared by the tiled GEMM kernels (composed into their modules by opgen): the walk of one
// TILE_M x 128 output tile over its K slice. TILE_M is the kernel's const: 128 (gemm_vec4,
// gemm_scalar, conv2d_gemm128), 64 or 32 (gemm_vec4_m64, gemm_vec4_m32, and
// linear_q4gsw's q4gsw_gemm: fewer rows per workgroup, so a GEMM of a few hundred rows
// still fills every SM). The kernel supplies
// staged_a(z, m, k, end) (A[z][m][k..k + 3]) and staged_b(z, r, c, end) (B_IS_NK:
// W[z][n = r][k = c..c + 3], else B[z][k = r][n = c..c + 3]) as types StagedA and
// StagedB, inside_a(m, k, end) and inside_b(r, c, end), and widen_a(v, inside) and
// widen_b(v, inside): the vec4<f32>, zeros outside (gemm_loads_vec4.wgsl: the tensors'
// storage form; gemm_staged_f32.wgsl: float32 as loaded, zeros outside); the stores are
// gemm_store.wgsl's: the result, or with split K (workgroup z: batch * split + slice)
// this slice's partial sums.
//
// 16 x TILE_M / 8 threads; thread (x, y) owns output rows 4y..4y+3 and TILE_M/2 + 4y..+3
// and columns 4x..4x+3 and 64+4x..64+4x+3: eight rows of two vec4s, acc<row>_<column
// half>. Each K step stages an 8 x TILE_M slice of A and an 8 x 128 slice of B in
// workgroup memory, k-major, 4 rows or columns per vec4: one A vec4 per thread and
// B_LOADS B vec4s (1, 2 or 4). The next step's slices are loaded into registers while
// this one computes, so one barrier per step suffices (two buffers of each: at most 16
// KiB, WebGPU's default workgroup storage limit).
//
// How the K loop is written decides what the driver makes of it (NVIDIA's code read back
// by tools/probes/probe_sass.py; H200 figures in docs/performance.md): a `for k` loop over
// the step is not unrolled, so each k waits for its workgroup loads; the step is written
// out as K_STEP calls of multiply_k instead, on private accumulators. The loads of the
// step after next are issued right after the barrier, unconditionally (past the end they
// are zeros): loads under a runtime `if`, or before the FMAs in the same block, were
// moved below the FMAs, where nothing hides their latency (the `B_LOADS > 1u` tests
// below are on consts, decided when the module is compiled). Together: 0.71x to 0.90x
// cuBLAS at 4096³.

const TILE_N: u32 = 128u;
const K_STEP: u32 = 8u;
const THREADS: u32 = 2u * TILE_M;
const A_STAGE: u32 = 2u * TILE_M;  // vec4s per staged A slice (K_STEP * TILE_M / 4)
const A_BUFFERS: u32 = 4u * TILE_M;
const B_STAGE: u32 = 256u;  // vec4s per staged B slice (K_STEP * TILE_N / 4)
const B_LOADS: u32 = B_STAGE / THREADS;  // B vec4s each thread stages per step

var<workgroup> a_tile: array<vec4<f32>, A_BUFFERS>;  // [buffer][k][m / 4]
var<workgroup> b_tile: array<vec4<f32>, 512>;  // [buffer][k][n / 4]

// A step's loads, held in their staged form while the step before computes, and which of
// them lie inside (bit 0: a, bits 1..4: b0..b3)
struct Staged {
  a: StagedA,
  b0: StagedB,
  b1: StagedB,
  b2: StagedB,
  b3: StagedB,
  inside: u32,
}

// B vec4 i of a step's slice (its (r, c) for staged_b and inside_b): as [N][K], row i / 2
// and k (i % 2) * 4..+3; as [K][N], row i / 32 and columns (i % 32) * 4..+3.
fn b_at(n0: u32, k0: u32, i: u32) -> vec2<u32> {
  if (B_IS_NK) {
    return vec2<u32>(n0 + i / 2u, k0 + i % 2u * 4u);
  }
  return vec2<u32>(k0 + i / 32u, n0 + i % 32u * 4u);
}

fn stage_b(z: u32, n0: u32, k0: u32, end: u32, i: u32) -> StagedB {
  let at = b_at(n0, k0, i);
  return staged_b(z, at.x, at.y, end);
}

// Bit `bit` set when B vec4 i of the step's slice lies inside.
fn inside_bit(n0: u32, k0: u32, end: u32, i: u32, bit: u32) -> u32 {
  let at = b_at(n0, k0, i);
  return select(0u, 1u << bit, inside_b(at.x, at.y, end));
}

// Thread tid loads A row tid / 2, k (tid % 2) * 4..+3, and B vec4s tid, tid + THREADS, ...
fn stage_load(z: u32, m0: u32, n0: u32, k0: u32, end: u32, tid: u32) -> Staged {
  var s: Staged;
  s.a = staged_a(z, m0 + tid / 2u, k0 + tid % 2u * 4u, end);
  s.inside = select(0u, 1u, inside_a(m0 + tid / 2u, k0 + tid % 2u * 4u, end));
  s.b0 = stage_b(z, n0, k0, end, tid);
  s.inside |= inside_bit(n0, k0, end, tid, 1u);
  if (B_LOADS > 1u) {
    s.b1 = stage_b(z, n0, k0, end, tid + THREADS);
    s.inside |= inside_bit(n0, k0, end, tid + THREADS, 2u);
  }
  if (B_LOADS > 2u) {
    s.b2 = stage_b(z, n0, k0, end, tid + 2u * THREADS);
    s.b3 = stage_b(z, n0, k0, end, tid + 3u * THREADS);
    s.inside |= inside_bit(n0, k0, end, tid + 2u * THREADS, 3u) |
                inside_bit(n0, k0, end, tid + 3u * THREADS, 4u);
  }
  return s;
}

// Components by name, never by a runtime index: an indexed vector may be spilled to
// memory (measured: the indexed form ran at 0.6x on the H200).
fn stage_store(s: Staged, buffer: u32, tid: u32) {
  let row = tid / 2u;
  let at = buffer * A_STAGE + tid % 2u * TILE_M + row / 4u;
  let lane = row % 4u;
  let a = widen_a(s.a, (s.inside & 1u) != 0u);
  a_tile[at][lane] = a.x;
  a_tile[at + TILE_M / 4u][lane] = a.y;
  a_tile[at + TILE_M / 2u][lane] = a.z;
  a_tile[at + 3u * TILE_M / 4u][lane] = a.w;
  let base = buffer * B_STAGE;
  stage_store_b(widen_b(s.b0, (s.inside & 2u) != 0u), base, tid);
  if (B_LOADS > 1u) {
    stage_store_b(widen_b(s.b1, (s.inside & 4u) != 0u), base, tid + THREADS);
  }
  if (B_LOADS > 2u) {
    stage_store_b(widen_b(s.b2, (s.inside & 8u) != 0u), base, tid + 2u * THREADS);
    stage_store_b(widen_b(s.b3, (s.inside & 16u) != 0u), base, tid + 3u * THREADS);
  }
}

fn stage_store_b(v: vec4<f32>, base: u32, i: u32) {
  if (B_IS_NK) {
    let row = i / 2u;
    let at = base + i % 2u * TILE_N + row / 4u;
    let lane = row % 4u;
    b_tile[at][lane] = v.x;
    b_tile[at + TILE_N / 4u][lane] = v.y;
    b_tile[at + TILE_N / 2u][lane] = v.z;
    b_tile[at + 3u * TILE_N / 4u][lane] = v.w;
  } else {
    b_tile[base + i] = v;
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

// One k of the staged slices (`ka`, `kb`: its first vec4 of A and of B): the outer product
// of thread (x, y)'s A and B quads added into its accumulators.
fn multiply_k(ka: u32, kb: u32, x: u32, y: u32) {
  let a0 = a_tile[ka + y];
  let a1 = a_tile[ka + y + TILE_M / 8u];
  let b0 = b_tile[kb + x];
  let b1 = b_tile[kb + x + 16u];
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
  let m0 = wid.y * TILE_M;
  let n0 = wid.x * TILE_N;
  let k_begin = slice * params.k_chunk;
  let k_end = min(params.K, k_begin + params.k_chunk);
  if (k_begin < k_end) {
    stage_store(stage_load(z, m0, n0, k_begin, k_end, tid), 0u, tid);
  }
  workgroupBarrier();
  var buffer = 0u;
  var next = stage_load(z, m0, n0, k_begin + K_STEP, k_end, tid);
  for (var k0 = k_begin; k0 < k_end; k0 += K_STEP) {
    let ka = buffer * A_STAGE;
    let kb = buffer * B_STAGE;
    multiply_k(ka, kb, lid.x, lid.y);
    multiply_k(ka + TILE_M / 4u, kb + TILE_N / 4u, lid.x, lid.y);
    multiply_k(ka + 2u * TILE_M / 4u, kb + 2u * TILE_N / 4u, lid.x, lid.y);
    multiply_k(ka + 3u * TILE_M / 4u, kb + 3u * TILE_N / 4u, lid.x, lid.y);
    multiply_k(ka + 4u * TILE_M / 4u, kb + 4u * TILE_N / 4u, lid.x, lid.y);
    multiply_k(ka + 5u * TILE_M / 4u, kb + 5u * TILE_N / 4u, lid.x, lid.y);
    multiply_k(ka + 6u * TILE_M / 4u, kb + 6u * TILE_N / 4u, lid.x, lid.y);
    multiply_k(ka + 7u * TILE_M / 4u, kb + 7u * TILE_N / 4u, lid.x, lid.y);
    buffer = 1u - buffer;
    stage_store(next, buffer, tid);
    workgroupBarrier();
    next = stage_load(z, m0, n0, k0 + 2u * K_STEP, k_end, tid);
  }
  let top = m0 + 4u * lid.y;
  let bottom = top + TILE_M / 2u;
  let left = n0 + 4u * lid.x;
  let right = left + TILE_N / 2u;
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
