// The decode GEMV layout with several weight rows per thread (one input row, M = 1):
// linear_q4gsw's q4gsw_gemv_rows kernels and the fused q4gsw_gemv_qkv and
// q4gsw_gemv_silu_mul. A 256-thread workgroup takes blocks of 8 rows: thread t serves
// rows (t / 4) % 8 + 8 r of its block (r < ROWS_PER_THREAD) at k-lane t % 4 + 4 * (t / 32)
// of 32, so a warp reads 4 adjacent quads (vec4<u32>, 32 packed weights) of 8 rows, as
// q4gsw_lanes.wgsl, and every input quad a thread loads serves all of its rows. On large
// matrices the input's loads (8 vec4s per quad) bound q4gsw_lanes' one row per thread:
// the 128,256-row output projection took 164 us with one row per thread, 77 with four
// (H100, tools/probes/probe_decode_kernels.py). The kernel defines ROWS_PER_THREAD and
// the accessors words_of(mat, i) and scale_of(mat, i), matrix mat's vec4<u32> i and scale
// i (a kernel of one matrix ignores mat; one of several branches on it, uniformly per
// workgroup). Only without runtime checks: naga's clamped indexing keeps the private
// arrays out of registers (the decode GEMVs then took twice as long).

const K_LANES: u32 = 32u;  // threads per weight row
const ROWS: u32 = 8u * ROWS_PER_THREAD;  // weight rows per workgroup

// Each thread's VALUES sums (the kernel's const: one per row it serves, or more) added
// over its row's k-lanes by reduce_lanes (q4gsw_rows_reduce.wgsl, or its _subgroup twin)
var<workgroup> row_parts: array<f32, 64 * VALUES>;  // [value][row of the block][warp]

// After reduce_lanes: value v of the block's row r (r < 8), its 8 warps' parts added.
fn row_total(v: u32, r: u32) -> f32 {
  var total = 0.0;
  for (var w = 0u; w < 8u; w++) {
    total += row_parts[v * 64u + r * 8u + w];
  }
  return total;
}

// Thread tid's first row in its block of 8 (its others follow 8 apart).
fn lane_row(tid: u32) -> u32 {
  return (tid / 4u) % 8u;
}

// Thread tid's first quad of a row (its others follow K_LANES apart).
fn lane_quad(tid: u32) -> u32 {
  return tid % 4u + 4u * (tid / 32u);
}

// Input row 0's quad q: elements 32 q .. 32 q + 31.
fn input_quad(q: u32) -> array<vec4<f32>, 8> {
  var x: array<vec4<f32>, 8>;
  for (var i = 0u; i < 8u; i++) {
    x[i] = input4(0u, q * 8u + i);
  }
  return x;
}

// Rows n, n + 8, ... of matrix `mat` (N rows) at quad q, dotted with x (the input's quad
// q). A row past N reads row N - 1; the caller stores no sum of it. Every row's words and
// first scale are loaded before any arithmetic (a scale loaded under the group test below
// was issued after it: the down projection's GEMV took 30 % longer).
fn rows_dot(mat: u32, N: u32, n: u32, q: u32,
            x: array<vec4<f32>, 8>) -> array<f32, ROWS_PER_THREAD> {
  let quads = params.K / 32u;
  let group = q * 32u / params.group_size;  // the quad's first word's group
  var rows: array<u32, ROWS_PER_THREAD>;
  var words: array<vec4<u32>, ROWS_PER_THREAD>;
  var scales: array<f32, ROWS_PER_THREAD>;
  for (var r = 0u; r < ROWS_PER_THREAD; r++) {
    rows[r] = min(n + 8u * r, N - 1u);
    words[r] = words_of(mat, rows[r] * quads + q);
    scales[r] = scale_of(mat, group * N + rows[r]);
  }
  var sums: array<f32, ROWS_PER_THREAD>;
  for (var r = 0u; r < ROWS_PER_THREAD; r++) {
    var sum = 0.0;
    if (params.group_size % 32u == 0u) {  // the quad lies in one group: one scale
      for (var j = 0u; j < 4u; j++) {
        let v = nibbles(words[r][j]);
        sum += dot(x[2u * j], v[0]) + dot(x[2u * j + 1u], v[1]);
      }
      sum *= scales[r];
    } else {
      for (var j = 0u; j < 4u; j++) {
        let v = nibbles(words[r][j]);
        let g = (q * 8u + 2u * j) * 4u / params.group_size;
        sum += (dot(x[2u * j], v[0]) + dot(x[2u * j + 1u], v[1])) * scale_of(mat, g * N + rows[r]);
      }
    }
    sums[r] = sum;
  }
  return sums;
}

// Thread tid's sums of rows n, n + 8, ... of matrix `mat` over its quads (lane_quad(tid),
// then K_LANES apart). One quad a step: two quads' loads in flight per step made the
// model's rows GEMVs 8 % slower, the gate/up one 24 % (H100).
fn rows_sums(mat: u32, N: u32, n: u32, tid: u32) -> array<f32, ROWS_PER_THREAD> {
  var sums: array<f32, ROWS_PER_THREAD>;
  for (var q = lane_quad(tid); q < params.K / 32u; q += K_LANES) {
    let dots = rows_dot(mat, N, n, q, input_quad(q));
    for (var r = 0u; r < ROWS_PER_THREAD; r++) {
      sums[r] += dots[r];
    }
  }
  return sums;
}
