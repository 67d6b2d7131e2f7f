// Shared by the tiled GEMM kernels (composed into their modules by opgen): the walk of one
// TILE_M x 128 output tile over its K slice. TILE_M is the kernel's const: 128 (gemm_vec4,
// gemm_scalar, conv2d_gemm128), 64 or 32 (gemm_vec4_m64, gemm_vec4_m32, and
// linear_q4gsw's q4gsw_gemm: fewer rows per workgroup, so a GEMM of a few hundred rows
// still fills every SM). The kernel supplies
// load_a(z, m, k, end) (A[z][m][k..k + 3]) and load_b(z, r, c, end) (B_IS_NK:
// W[z][n = r][k = c..c + 3], else B[z][k = r][n = c..c + 3]), zeros outside; the stores
// are gemm_store.wgsl's: the result, or with split K (workgroup z: batch * split + slice)
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
//
// Arithmetic: the kernel's const HALF_RUNS and alias Mul. The float32 kernels and the
// float16 twins that store halves in words (f16_packed) stage f32 (Mul = f32) and
// multiply-add into the f32 accumulators (multiply_k). The shader-f16 twins of the GEMM
// and conv2d_gemm128 kernels (HALF_RUNS, Mul = f16) stage halves and multiply-add in
// vec4<f16> (multiply_k_half: NVIDIA's HFMA2, two FMAs an instruction) into f16 run sums
// of RUN_STEPS staged steps (RUN_STEPS * K_STEP = 16 products each), which flush_runs adds
// into the f32 accumulators: the sum across K stays float32, only the 16-term runs are
// half (docs/numerics.md gives the error). A run that leaves the half range (an f16 sum
// past 65504 where the f32 sum is finite) makes an accumulator inf or NaN: then the
// whole workgroup walks its K slice again, exactly as the float32 kernel does (the staged
// halves widened, multiply_k), so every overflow that f32 arithmetic would not have is
// undone; a tile whose float32 result is itself inf or NaN is computed twice.

const TILE_N: u32 = 128u;
const K_STEP: u32 = 8u;
const RUN_STEPS: u32 = 2u;  // staged steps per f16 run (HALF_RUNS)
const THREADS: u32 = 2u * TILE_M;
const A_STAGE: u32 = 2u * TILE_M;  // vec4s per staged A slice (K_STEP * TILE_M / 4)
const A_BUFFERS: u32 = 4u * TILE_M;
const B_STAGE: u32 = 256u;  // vec4s per staged B slice (K_STEP * TILE_N / 4)
const B_LOADS: u32 = B_STAGE / THREADS;  // B vec4s each thread stages per step

var<workgroup> a_tile: array<vec4<Mul>, A_BUFFERS>;  // [buffer][k][m / 4]
var<workgroup> b_tile: array<vec4<Mul>, 512>;  // [buffer][k][n / 4]
var<workgroup> overflow_lanes: atomic<u32>;  // HALF_RUNS: a thread's run sums left the range
var<workgroup> overflowed: u32;

struct Staged {
  a: vec4<Mul>,
  b0: vec4<Mul>,
  b1: vec4<Mul>,
  b2: vec4<Mul>,
  b3: vec4<Mul>,
}

// B vec4 i of a step's slice: as [N][K], row i / 2 and k (i % 2) * 4..+3; as [K][N],
// row i / 32 and columns (i % 32) * 4..+3. (Halves widened by the loaders convert back
// exactly.)
fn stage_b(z: u32, n0: u32, k0: u32, end: u32, i: u32) -> vec4<Mul> {
  if (B_IS_NK) {
    return vec4<Mul>(load_b(z, n0 + i / 2u, k0 + i % 2u * 4u, end));
  }
  return vec4<Mul>(load_b(z, k0 + i / 32u, n0 + i % 32u * 4u, end));
}

// Thread tid loads A row tid / 2, k (tid % 2) * 4..+3, and B vec4s tid, tid + THREADS, ...
fn stage_load(z: u32, m0: u32, n0: u32, k0: u32, end: u32, tid: u32) -> Staged {
  var s: Staged;
  s.a = vec4<Mul>(load_a(z, m0 + tid / 2u, k0 + tid % 2u * 4u, end));
  s.b0 = stage_b(z, n0, k0, end, tid);
  if (B_LOADS > 1u) {
    s.b1 = stage_b(z, n0, k0, end, tid + THREADS);
  }
  if (B_LOADS > 2u) {
    s.b2 = stage_b(z, n0, k0, end, tid + 2u * THREADS);
    s.b3 = stage_b(z, n0, k0, end, tid + 3u * THREADS);
  }
  return s;
}

// Components by name, never by a runtime index: an indexed vector may be spilled to
// memory (measured: the indexed form ran at 0.6x on the H200).
fn stage_store(s: Staged, buffer: u32, tid: u32) {
  let row = tid / 2u;
  let at = buffer * A_STAGE + tid % 2u * TILE_M + row / 4u;
  let lane = row % 4u;
  a_tile[at][lane] = s.a.x;
  a_tile[at + TILE_M / 4u][lane] = s.a.y;
  a_tile[at + TILE_M / 2u][lane] = s.a.z;
  a_tile[at + 3u * TILE_M / 4u][lane] = s.a.w;
  let base = buffer * B_STAGE;
  stage_store_b(s.b0, base, tid);
  if (B_LOADS > 1u) {
    stage_store_b(s.b1, base, tid + THREADS);
  }
  if (B_LOADS > 2u) {
    stage_store_b(s.b2, base, tid + 2u * THREADS);
    stage_store_b(s.b3, base, tid + 3u * THREADS);
  }
}

fn stage_store_b(v: vec4<Mul>, base: u32, i: u32) {
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
// HALF_RUNS: the run sums of the same outputs, added into acc by flush_runs.
var<private> run0_0: vec4<Mul>;
var<private> run0_1: vec4<Mul>;
var<private> run1_0: vec4<Mul>;
var<private> run1_1: vec4<Mul>;
var<private> run2_0: vec4<Mul>;
var<private> run2_1: vec4<Mul>;
var<private> run3_0: vec4<Mul>;
var<private> run3_1: vec4<Mul>;
var<private> run4_0: vec4<Mul>;
var<private> run4_1: vec4<Mul>;
var<private> run5_0: vec4<Mul>;
var<private> run5_1: vec4<Mul>;
var<private> run6_0: vec4<Mul>;
var<private> run6_1: vec4<Mul>;
var<private> run7_0: vec4<Mul>;
var<private> run7_1: vec4<Mul>;

// One k of the staged slices (`ka`, `kb`: its first vec4 of A and of B): the outer product
// of thread (x, y)'s A and B quads added into its f32 accumulators.
fn multiply_k(ka: u32, kb: u32, x: u32, y: u32) {
  let a0 = vec4<f32>(a_tile[ka + y]);
  let a1 = vec4<f32>(a_tile[ka + y + TILE_M / 8u]);
  let b0 = vec4<f32>(b_tile[kb + x]);
  let b1 = vec4<f32>(b_tile[kb + x + 16u]);
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

// multiply_k in Mul (HALF_RUNS: f16 FMAs) into the run sums.
fn multiply_k_half(ka: u32, kb: u32, x: u32, y: u32) {
  let a0 = a_tile[ka + y];
  let a1 = a_tile[ka + y + TILE_M / 8u];
  let b0 = b_tile[kb + x];
  let b1 = b_tile[kb + x + 16u];
  run0_0 = fma(vec4<Mul>(a0.x), b0, run0_0);
  run0_1 = fma(vec4<Mul>(a0.x), b1, run0_1);
  run1_0 = fma(vec4<Mul>(a0.y), b0, run1_0);
  run1_1 = fma(vec4<Mul>(a0.y), b1, run1_1);
  run2_0 = fma(vec4<Mul>(a0.z), b0, run2_0);
  run2_1 = fma(vec4<Mul>(a0.z), b1, run2_1);
  run3_0 = fma(vec4<Mul>(a0.w), b0, run3_0);
  run3_1 = fma(vec4<Mul>(a0.w), b1, run3_1);
  run4_0 = fma(vec4<Mul>(a1.x), b0, run4_0);
  run4_1 = fma(vec4<Mul>(a1.x), b1, run4_1);
  run5_0 = fma(vec4<Mul>(a1.y), b0, run5_0);
  run5_1 = fma(vec4<Mul>(a1.y), b1, run5_1);
  run6_0 = fma(vec4<Mul>(a1.z), b0, run6_0);
  run6_1 = fma(vec4<Mul>(a1.z), b1, run6_1);
  run7_0 = fma(vec4<Mul>(a1.w), b0, run7_0);
  run7_1 = fma(vec4<Mul>(a1.w), b1, run7_1);
}

// The run sums added into the accumulators, and cleared.
fn flush_runs() {
  acc0_0 += vec4<f32>(run0_0);
  acc0_1 += vec4<f32>(run0_1);
  acc1_0 += vec4<f32>(run1_0);
  acc1_1 += vec4<f32>(run1_1);
  acc2_0 += vec4<f32>(run2_0);
  acc2_1 += vec4<f32>(run2_1);
  acc3_0 += vec4<f32>(run3_0);
  acc3_1 += vec4<f32>(run3_1);
  acc4_0 += vec4<f32>(run4_0);
  acc4_1 += vec4<f32>(run4_1);
  acc5_0 += vec4<f32>(run5_0);
  acc5_1 += vec4<f32>(run5_1);
  acc6_0 += vec4<f32>(run6_0);
  acc6_1 += vec4<f32>(run6_1);
  acc7_0 += vec4<f32>(run7_0);
  acc7_1 += vec4<f32>(run7_1);
  run0_0 = vec4<Mul>();
  run0_1 = vec4<Mul>();
  run1_0 = vec4<Mul>();
  run1_1 = vec4<Mul>();
  run2_0 = vec4<Mul>();
  run2_1 = vec4<Mul>();
  run3_0 = vec4<Mul>();
  run3_1 = vec4<Mul>();
  run4_0 = vec4<Mul>();
  run4_1 = vec4<Mul>();
  run5_0 = vec4<Mul>();
  run5_1 = vec4<Mul>();
  run6_0 = vec4<Mul>();
  run6_1 = vec4<Mul>();
  run7_0 = vec4<Mul>();
  run7_1 = vec4<Mul>();
}

// Whether every accumulator is finite (no exponent of all ones).
fn tile_finite() -> bool {
  let e = vec4<u32>(0x7f800000u);
  var m = bitcast<vec4<u32>>(acc0_0) & e;
  m = max(m, bitcast<vec4<u32>>(acc0_1) & e);
  m = max(m, bitcast<vec4<u32>>(acc1_0) & e);
  m = max(m, bitcast<vec4<u32>>(acc1_1) & e);
  m = max(m, bitcast<vec4<u32>>(acc2_0) & e);
  m = max(m, bitcast<vec4<u32>>(acc2_1) & e);
  m = max(m, bitcast<vec4<u32>>(acc3_0) & e);
  m = max(m, bitcast<vec4<u32>>(acc3_1) & e);
  m = max(m, bitcast<vec4<u32>>(acc4_0) & e);
  m = max(m, bitcast<vec4<u32>>(acc4_1) & e);
  m = max(m, bitcast<vec4<u32>>(acc5_0) & e);
  m = max(m, bitcast<vec4<u32>>(acc5_1) & e);
  m = max(m, bitcast<vec4<u32>>(acc6_0) & e);
  m = max(m, bitcast<vec4<u32>>(acc6_1) & e);
  m = max(m, bitcast<vec4<u32>>(acc7_0) & e);
  m = max(m, bitcast<vec4<u32>>(acc7_1) & e);
  return all(m != e);
}

fn clear_accumulators() {
  acc0_0 = vec4<f32>();
  acc0_1 = vec4<f32>();
  acc1_0 = vec4<f32>();
  acc1_1 = vec4<f32>();
  acc2_0 = vec4<f32>();
  acc2_1 = vec4<f32>();
  acc3_0 = vec4<f32>();
  acc3_1 = vec4<f32>();
  acc4_0 = vec4<f32>();
  acc4_1 = vec4<f32>();
  acc5_0 = vec4<f32>();
  acc5_1 = vec4<f32>();
  acc6_0 = vec4<f32>();
  acc6_1 = vec4<f32>();
  acc7_0 = vec4<f32>();
  acc7_1 = vec4<f32>();
}

// The staged steps `ka`, `kb`: eight k, in f16 runs (HALF_RUNS and not `exact`) or f32.
// Written out, not a `for k` loop (above).
fn multiply_step(ka: u32, kb: u32, x: u32, y: u32, exact: bool) {
  if (HALF_RUNS && !exact) {
    multiply_k_half(ka, kb, x, y);
    multiply_k_half(ka + 1u * TILE_M / 4u, kb + 1u * TILE_N / 4u, x, y);
    multiply_k_half(ka + 2u * TILE_M / 4u, kb + 2u * TILE_N / 4u, x, y);
    multiply_k_half(ka + 3u * TILE_M / 4u, kb + 3u * TILE_N / 4u, x, y);
    multiply_k_half(ka + 4u * TILE_M / 4u, kb + 4u * TILE_N / 4u, x, y);
    multiply_k_half(ka + 5u * TILE_M / 4u, kb + 5u * TILE_N / 4u, x, y);
    multiply_k_half(ka + 6u * TILE_M / 4u, kb + 6u * TILE_N / 4u, x, y);
    multiply_k_half(ka + 7u * TILE_M / 4u, kb + 7u * TILE_N / 4u, x, y);
  } else {
    multiply_k(ka, kb, x, y);
    multiply_k(ka + 1u * TILE_M / 4u, kb + 1u * TILE_N / 4u, x, y);
    multiply_k(ka + 2u * TILE_M / 4u, kb + 2u * TILE_N / 4u, x, y);
    multiply_k(ka + 3u * TILE_M / 4u, kb + 3u * TILE_N / 4u, x, y);
    multiply_k(ka + 4u * TILE_M / 4u, kb + 4u * TILE_N / 4u, x, y);
    multiply_k(ka + 5u * TILE_M / 4u, kb + 5u * TILE_N / 4u, x, y);
    multiply_k(ka + 6u * TILE_M / 4u, kb + 6u * TILE_N / 4u, x, y);
    multiply_k(ka + 7u * TILE_M / 4u, kb + 7u * TILE_N / 4u, x, y);
  }
}

// The K slice [k_begin, k_end) into the accumulators: f16 runs unless `exact`.
fn walk(z: u32, m0: u32, n0: u32, k_begin: u32, k_end: u32, lid: vec3<u32>, exact: bool) {
  let tid = lid.y * 16u + lid.x;
  if (k_begin < k_end) {
    stage_store(stage_load(z, m0, n0, k_begin, k_end, tid), 0u, tid);
  }
  workgroupBarrier();
  var buffer = 0u;
  var runs = 0u;
  var next = stage_load(z, m0, n0, k_begin + K_STEP, k_end, tid);
  for (var k0 = k_begin; k0 < k_end; k0 += K_STEP) {
    multiply_step(buffer * A_STAGE, buffer * B_STAGE, lid.x, lid.y, exact);
    if (HALF_RUNS && !exact) {
      runs++;
      if (runs == RUN_STEPS) {
        flush_runs();
        runs = 0u;
      }
    }
    buffer = 1u - buffer;
    stage_store(next, buffer, tid);
    workgroupBarrier();
    next = stage_load(z, m0, n0, k0 + 2u * K_STEP, k_end, tid);
  }
  if (HALF_RUNS) {
    flush_runs();
  }
}

fn gemm_tile(lid: vec3<u32>, wid: vec3<u32>) {
  let slice = wid.z % params.split;
  let z = wid.z / params.split;
  let m0 = wid.y * TILE_M;
  let n0 = wid.x * TILE_N;
  let k_begin = slice * params.k_chunk;
  let k_end = min(params.K, k_begin + params.k_chunk);
  if (HALF_RUNS && lid.x == 0u && lid.y == 0u) {
    // cleared here: a module without runtime checks may leave workgroup memory as the
    // last workgroup on the SM left it (walk's first barrier orders this before the ors)
    atomicStore(&overflow_lanes, 0u);
  }
  walk(z, m0, n0, k_begin, k_end, lid, false);
  if (HALF_RUNS) {  // a run sum past the half range: the slice again, in f32
    if (!tile_finite()) {
      atomicOr(&overflow_lanes, 1u);
    }
    workgroupBarrier();
    if (lid.x == 0u && lid.y == 0u) {
      overflowed = atomicLoad(&overflow_lanes);
    }
    if (workgroupUniformLoad(&overflowed) != 0u) {
      clear_accumulators();
      walk(z, m0, n0, k_begin, k_end, lid, true);
    }
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
