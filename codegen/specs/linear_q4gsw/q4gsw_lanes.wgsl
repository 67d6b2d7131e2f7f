// The GEMV kernels' shared part. A workgroup of 256 threads takes SETS * ROWS weight rows
// (output columns n) and splits each row's K over K_LANES threads: thread t serves rows
// (t / 4) % ROWS + ROWS * s of the workgroup (s < SETS) at k-lane t % 4 + 4 * (t / 32),
// reading each row's vec4<u32> quads (32 packed weights each) k-lane, k-lane + K_LANES,
// ... So 32 consecutive threads read 4 adjacent quads of each of 8 rows (64-byte runs)
// and the scales of 4 groups for 8 adjacent rows (32-byte runs: scales are [K /
// group_size, N]); one row per 32 threads would read a scale N floats apart per thread.
// A thread loads the quads of two k-steps of all its rows before it computes (2 * SETS
// loads in flight), and each input vec4 it loads serves its SETS rows. SETS (a kernel
// constant) trades parallelism for fewer input loads: wide outputs take more rows per
// thread. K % 32 == 0: a row is whole quads, a group whole words.

const ROWS: u32 = 8u;  // rows 32 consecutive threads read at once
const K_LANES: u32 = 32u;  // threads per weight row
const SLOTS: u32 = 2u * SETS;  // (k-step, row set) pairs a thread loads at once

var<workgroup> row_parts: array<vec4<f32>, 64u * SETS>;  // [row][k-lane / 4]

// The workgroup's index in the 1-D grid (it takes rows ROWS * SETS times it onwards).
fn gemv_group(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return linear_index(gid, num_workgroups) / WORKGROUP_SIZE_X;
}

// Row set s of thread tid, as a row of the workgroup (0 .. ROWS * SETS - 1).
fn local_row(tid: u32, s: u32) -> u32 {
  return (tid / 4u) % ROWS + ROWS * s;
}

// Input row m's k .. k + 7 (k = 8 * word) dotted with a word's eight weights.
fn word_dot(m: u32, word_index: u32, word: u32) -> f32 {
  let v = nibbles(word);
  return dot(input4(m, 2u * word_index), v[0]) + dot(input4(m, 2u * word_index + 1u), v[1]);
}

// Thread tid's partial dot products of its SETS rows (slot 2 * s and 2 * s + 1: the two
// k-steps of row set s) with input rows 0..3 (one vec4 per slot). Rows past N read row
// N - 1 and quads past K read nothing; store_rows drops the rows.
fn lane_dots(group: u32, tid: u32) -> array<vec4<f32>, SLOTS> {
  var acc: array<vec4<f32>, SLOTS>;
  let quads = params.K / 32u;
  let one_scale = params.group_size % 32u == 0u;  // a quad lies in one group
  for (var q0 = tid % 4u + 4u * (tid / 32u); q0 < quads; q0 += 2u * K_LANES) {
    // every load of the step first, then the arithmetic
    var words: array<vec4<u32>, SLOTS>;
    var n: array<u32, SLOTS>;
    var q: array<u32, SLOTS>;
    for (var slot = 0u; slot < SLOTS; slot++) {
      n[slot] = min(group * ROWS * SETS + local_row(tid, slot / 2u), params.N - 1u);
      q[slot] = q0 + (slot % 2u) * K_LANES;
      if (q[slot] < quads) {
        words[slot] = w[n[slot] * quads + q[slot]];
      }
    }
    // input row 0 always; rows 1..3 in a branch of their own (a few-sequence decode), so
    // that a one-token step's loop has no branch between its loads and its arithmetic
    var sums: array<vec4<f32>, SLOTS>;
    for (var j = 0u; j < 4u; j++) {
      for (var slot = 0u; slot < SLOTS; slot++) {
        var d = word_dot(0u, q[slot] * 4u + j, words[slot][j]);
        if (!one_scale) {
          d *= scales_load(((q[slot] * 32u + j * 8u) / params.group_size) * params.N + n[slot]);
        }
        sums[slot].x += d;
      }
    }
    if (params.M > 1u) {
      for (var m = 1u; m < 4u; m++) {
        for (var j = 0u; j < 4u; j++) {
          for (var slot = 0u; slot < SLOTS; slot++) {
            var d = 0.0;
            if (m < params.M) {
              d = word_dot(m, q[slot] * 4u + j, words[slot][j]);
            }
            if (!one_scale) {
              d *= scales_load(((q[slot] * 32u + j * 8u) / params.group_size) * params.N +
                               n[slot]);
            }
            sums[slot][m] += d;
          }
        }
      }
    }
    for (var slot = 0u; slot < SLOTS; slot++) {
      if (q[slot] < quads) {
        var scale = 1.0;
        if (one_scale) {
          scale = scales_load((q[slot] * 32u / params.group_size) * params.N + n[slot]);
        }
        acc[slot] += sums[slot] * scale;
      }
    }
  }
  return acc;
}

// After row_parts holds every row's 8 partial sums (and a barrier): the outputs of the
// workgroup's rows, a thread each.
fn store_rows(group: u32, tid: u32) {
  let n = group * ROWS * SETS + tid;
  if (tid < ROWS * SETS && n < params.N) {
    var total = vec4<f32>();
    for (var p = 0u; p < 8u; p++) {
      total += row_parts[tid * 8u + p];
    }
    for (var m = 0u; m < params.M; m++) {
      store_output(m, n, total[m]);
    }
  }
}
