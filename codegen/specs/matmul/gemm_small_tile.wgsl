// gemm_small_scalar's tile (composed into its module by opgen): 32x32 output tiles, 4x4
// per thread, for unaligned GEMMs whose 128x128 tiles would leave most of the GPU idle
// while 32x32 tiles fill it (few rows, e.g. ViT-B attention at batch 1). Loaders, split-K
// store and epilogue are the dispatch's (gemm_loads_scalar.wgsl, gemm_store.wgsl's
// store_quad, gemm_epilogue.wgsl). The aligned GEMMs of few rows take gemm_tile.wgsl's
// 32- and 64-row tiles instead (8x8 outputs per thread).
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
const K_STEP: u32 = 8u;
const SMALL_STAGE: u32 = 64u;  // vec4s per staged slice (K_STEP * SMALL_TILE / 4)

var<workgroup> a_small: array<vec4<f32>, 128>;  // [buffer][k][m / 4]
var<workgroup> b_small: array<vec4<f32>, 128>;  // [buffer][k][n / 4]

struct SmallStaged {
  a: vec4<f32>,
  b: vec4<f32>,
}

// Thread tid loads A row tid / 2, k (tid % 2) * 4..+3; B likewise as [N][K], or as [K][N]
// row tid / 8, columns (tid % 8) * 4..+3.
fn small_load(z: u32, m0: u32, n0: u32, k0: u32, end: u32, tid: u32) -> SmallStaged {
  let row = tid / 2u;
  let k = k0 + tid % 2u * 4u;
  var s: SmallStaged;
  s.a = load_a(z, m0 + row, k, end);
  if (B_IS_NK) {
    s.b = load_b(z, n0 + row, k, end);
  } else {
    s.b = load_b(z, k0 + tid / 8u, n0 + tid % 8u * 4u, end);
  }
  return s;
}

fn small_store(s: SmallStaged, buffer: u32, tid: u32) {
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
