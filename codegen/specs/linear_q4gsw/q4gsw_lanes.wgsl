// The GEMV kernels' shared part. A workgroup of 256 threads takes SETS * ROWS weight rows
// (output columns n) and splits each row's K over K_LANES threads: thread t serves rows
// (t / 4) % ROWS + ROWS * s of the workgroup (s < SETS) at k-lane t % 4 + 4 * (t / 32),
// reading each row's vec4<u32> quads (32 packed weights each) k-lane, k-lane + K_LANES,
// ... So 32 consecutive threads read 4 adjacent quads of each of 8 rows (64-byte runs)
// and the scales of 4 groups for 8 adjacent rows (32-byte runs: scales are [K /
// group_size, N]); one row per 32 threads would read a scale N floats apart per thread.
// A thread's SETS rows give it SETS weight loads in flight, and each input vec4 it loads
// serves them all and M <= 4 input rows (one vec4 of sums per row). K % 32 == 0: a row is
// whole quads, a group whole words.

const ROWS: u32 = 8u;  // rows 32 consecutive threads read at once
const SETS: u32 = 4u;  // such row sets per workgroup, per thread
const K_LANES: u32 = 32u;  // threads per weight row

var<workgroup> row_parts: array<vec4<f32>, 256>;  // [row][k-lane / 4]: sums of 4 k-lanes

// The workgroup's index in the 1-D grid (it takes rows ROWS * SETS times it onwards).
fn gemv_group(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return linear_index(gid, num_workgroups) / WORKGROUP_SIZE_X;
}

// Row set s of thread tid, as a row of the workgroup (0 .. ROWS * SETS - 1).
fn local_row(tid: u32, s: u32) -> u32 {
  return (tid / 4u) % ROWS + ROWS * s;
}

// Thread tid's partial dot products of its SETS rows with input rows 0..3 (one vec4 per
// row; zeros past N).
fn lane_dots(group: u32, tid: u32) -> array<vec4<f32>, SETS> {
  var acc: array<vec4<f32>, SETS>;
  let quads = params.K / 32u;
  let one_scale = params.group_size % 32u == 0u;  // a quad lies in one group
  for (var q = tid % 4u + 4u * (tid / 32u); q < quads; q += K_LANES) {
    var words: array<vec4<u32>, SETS>;
    var scale: array<f32, SETS>;
    for (var s = 0u; s < SETS; s++) {
      let n = group * ROWS * SETS + local_row(tid, s);
      if (n < params.N) {
        words[s] = w[n * quads + q];
        if (one_scale) {
          scale[s] = scales_load((q * 32u / params.group_size) * params.N + n);
        }
      }
    }
    for (var j = 0u; j < 4u; j++) {
      let k4 = q * 8u + 2u * j;
      for (var s = 0u; s < SETS; s++) {
        let v = nibbles(words[s][j]);
        var word_scale = scale[s];
        if (!one_scale) {
          let n = min(group * ROWS * SETS + local_row(tid, s), params.N - 1u);
          word_scale = scales_load((k4 * 4u / params.group_size) * params.N + n);
        }
        var d = vec4<f32>();
        for (var m = 0u; m < params.M; m++) {
          d[m] = dot(input4(m, k4), v[0]) + dot(input4(m, k4 + 1u), v[1]);
        }
        acc[s] += d * word_scale;
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
