// The GEMV kernels' shared part. A workgroup of 256 threads takes ROWS weight rows (output
// columns n) and splits each row's K over K_LANES threads: thread t serves row (t / 4) %
// ROWS at k-lane t % 4 + 4 * (t / 32), reading the row's vec4<u32> quads (32 packed
// weights each) k-lane, k-lane + K_LANES, ... So 32 consecutive threads read 4 adjacent
// quads of each of 8 rows (64-byte runs) and the scales of 4 groups for 8 adjacent rows
// (32-byte runs: scales are [K / group_size, N]); one row per 32 threads would read a
// scale N floats apart per thread. Each input vec4 a thread loads serves M <= 4 rows (one
// vec4 of sums per thread). K % 32 == 0: a row is whole quads, a group whole words.

const ROWS: u32 = 8u;  // weight rows per workgroup
const K_LANES: u32 = 32u;  // threads per weight row

var<workgroup> row_parts: array<vec4<f32>, 64>;  // [row][k-lane / 4]: sums of 4 k-lanes

// The workgroup's index in the 1-D grid (the rows it takes: ROWS from ROWS times it).
fn gemv_group(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return linear_index(gid, num_workgroups) / WORKGROUP_SIZE_X;
}

fn gemv_row(group: u32, tid: u32) -> u32 {
  return group * ROWS + (tid / 4u) % ROWS;
}

// Weight row n's quad q dotted with input rows 0..3 (one component each).
fn quad_dots(n: u32, q: u32) -> vec4<f32> {
  let words = w[n * (params.K / 32u) + q];
  var sums = vec4<f32>();
  if (params.group_size % 32u == 0u) {  // the quad lies in one group: one scale
    for (var j = 0u; j < 4u; j++) {
      let v = nibbles(words[j]);
      let k4 = q * 8u + 2u * j;
      for (var m = 0u; m < params.M; m++) {
        sums[m] += dot(input4(m, k4), v[0]) + dot(input4(m, k4 + 1u), v[1]);
      }
    }
    return sums * scales_load((q * 32u / params.group_size) * params.N + n);
  }
  for (var j = 0u; j < 4u; j++) {
    let v = nibbles(words[j]);
    let k4 = q * 8u + 2u * j;
    let scale = scales_load((k4 * 4u / params.group_size) * params.N + n);
    for (var m = 0u; m < params.M; m++) {
      sums[m] += (dot(input4(m, k4), v[0]) + dot(input4(m, k4 + 1u), v[1])) * scale;
    }
  }
  return sums;
}

// Thread tid's partial dot products of weight row n with input rows 0..3; zeros past N.
// Two quads per step, so two loads of a thread are in flight together.
fn lane_dots(n: u32, tid: u32) -> vec4<f32> {
  var acc = vec4<f32>();
  if (n >= params.N) {
    return acc;
  }
  let quads = params.K / 32u;
  var q = tid % 4u + 4u * (tid / 32u);
  for (; q + K_LANES < quads; q += 2u * K_LANES) {
    acc += quad_dots(n, q) + quad_dots(n, q + K_LANES);
  }
  if (q < quads) {
    acc += quad_dots(n, q);
  }
  return acc;
}

// After row_parts holds every row's 8 partial sums (and a barrier): the outputs of the
// workgroup's rows.
fn store_rows(group: u32, tid: u32) {
  let n = group * ROWS + tid;
  if (tid < ROWS && n < params.N) {
    var total = vec4<f32>();
    for (var p = 0u; p < 8u; p++) {
      total += row_parts[tid * 8u + p];
    }
    for (var m = 0u; m < params.M; m++) {
      store_output(m, n, total[m]);
    }
  }
}
