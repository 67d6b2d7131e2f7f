// linear_dw: out[n, k] = sum_r d_out[r, n] * x[r, k]. One workgroup per 16 x 16 tile of
// out (x: k, y: n); each step loads 16 rows of d_out and x into workgroup memory.

const TILE: u32 = 16u;
const_assert WORKGROUP_SIZE_X == TILE && WORKGROUP_SIZE_Y == TILE;

var<workgroup> d_tile: array<array<f32, TILE>, TILE>;  // [row][n]
var<workgroup> x_tile: array<array<f32, TILE>, TILE>;  // [row][k]

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
  let k0 = wid.x * TILE;
  let n0 = wid.y * TILE;
  var acc = 0.0;
  for (var r0 = 0u; r0 < params.R; r0 += TILE) {
    let r = r0 + lid.y;
    var d = 0.0;
    if (r < params.R && n0 + lid.x < params.N) {
      d = d_out[r * params.N + n0 + lid.x];
    }
    var a = 0.0;
    if (r < params.R && k0 + lid.x < params.K) {
      a = x[r * params.K + k0 + lid.x];
    }
    d_tile[lid.y][lid.x] = d;
    x_tile[lid.y][lid.x] = a;
    workgroupBarrier();
    for (var j = 0u; j < TILE; j++) {
      acc += d_tile[j][lid.y] * x_tile[j][lid.x];
    }
    workgroupBarrier();
  }
  let n = n0 + lid.y;
  let k = k0 + lid.x;
  if (n < params.N && k < params.K) {
    output[n * params.K + k] = acc;
  }
}
