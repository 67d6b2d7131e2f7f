// q4gsw_tiled: 4-bit linear for many input rows (an LLM's prefill): 64 x 64 output tiles
// of 16 x 16 threads, 4 x 4 per thread. Each step stages 16 k of the input rows and of the
// weight rows, dequantized (nibble - 8) * scale, in workgroup memory; any M, N and K
// (the packing pads K to 8: padded nibbles and input columns past K read as 0).

const TILE: u32 = 64u;  // output rows and columns per workgroup
const K_STEP: u32 = 16u;  // k per staged step

var<workgroup> a_tile: array<vec4<f32>, 256>;  // [k][m / 4], 4 input rows per vec4
var<workgroup> w_tile: array<vec4<f32>, 256>;  // [k][n / 4], 4 weight rows per vec4

// The eight dequantized weights (n, k .. k + 7) for k a multiple of 8; zeros outside.
fn weight_word(n: u32, k: u32) -> array<vec4<f32>, 2> {
  if (n >= params.N || k >= params.K) {
    return array<vec4<f32>, 2>(vec4<f32>(), vec4<f32>());
  }
  let scale = scales[(k / params.group_size) * params.N + n];
  let v = nibbles(w[n * params.row_words + k / 8u]);
  return array<vec4<f32>, 2>(v[0] * scale, v[1] * scale);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let m0 = wid.y * TILE;
  let n0 = wid.x * TILE;
  var acc: array<vec4<f32>, 4>;  // rows m0 + 4 * lid.y + i, columns n0 + 4 * lid.x ..
  for (var k0 = 0u; k0 < params.K; k0 += K_STEP) {
    // input: thread t stages row t / 4, columns k0 + 4 * (t % 4) .. + 3
    let am = tid / 4u;
    let ak = (tid % 4u) * 4u;
    for (var i = 0u; i < 4u; i++) {
      a_tile[(ak + i) * 16u + am / 4u][am % 4u] = input1(m0 + am, k0 + ak + i);
    }
    // weights: threads 0..127 stage word t % 2 of row t / 2 (eight k)
    if (tid < 128u) {
      let wn = tid / 2u;
      let wk = (tid % 2u) * 8u;
      let v = weight_word(n0 + wn, k0 + wk);
      for (var i = 0u; i < 4u; i++) {
        w_tile[(wk + i) * 16u + wn / 4u][wn % 4u] = v[0][i];
        w_tile[(wk + 4u + i) * 16u + wn / 4u][wn % 4u] = v[1][i];
      }
    }
    workgroupBarrier();
    for (var k = 0u; k < K_STEP; k++) {
      let x = a_tile[k * 16u + lid.y];
      let wv = w_tile[k * 16u + lid.x];
      acc[0] += x.x * wv;
      acc[1] += x.y * wv;
      acc[2] += x.z * wv;
      acc[3] += x.w * wv;
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let m = m0 + lid.y * 4u + i;
    for (var j = 0u; j < 4u; j++) {
      let n = n0 + lid.x * 4u + j;
      if (m < params.M && n < params.N) {
        store_output(m, n, acc[i][j]);
      }
    }
  }
}
