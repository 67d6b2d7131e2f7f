// choose_qparams_rows: one row's scale and int8 zero point per 64 threads, four rows per
// workgroup (so the workgroup writes its rows' zero points as one whole word). The row's
// min and max start at 0: min(min(x), 0) and max(max(x), 0) as torchao computes them.

var<workgroup> lo: array<f32, 256>;
var<workgroup> hi: array<f32, 256>;
var<workgroup> zps: array<u32, 4>;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let quad = row_index(wid, num_workgroups);
  // uniform control flow: the whole workgroup leaves together
  if (quad >= params.quads) {
    return;
  }
  let slot = tid / 64u;
  let lane = tid % 64u;
  let row = quad * 4u + slot;
  var min_neg = 0.0;
  var max_pos = 0.0;
  if (row < params.rows) {
    for (var k = lane; k < params.K; k += 64u) {
      let v = input[row * params.K + k];
      min_neg = min(min_neg, v);
      max_pos = max(max_pos, v);
    }
  }
  lo[tid] = min_neg;
  hi[tid] = max_pos;
  workgroupBarrier();
  for (var stride = 32u; stride > 0u; stride /= 2u) {
    if (lane < stride) {
      lo[tid] = min(lo[tid], lo[tid + stride]);
      hi[tid] = max(hi[tid], hi[tid + stride]);
    }
    workgroupBarrier();
  }
  if (lane == 0u) {
    let qmin = params.quant_min;
    let qmax = params.quant_max;
    let s = max((hi[tid] - lo[tid]) / (qmax - qmin), params.eps);
    let zp = clamp(qmin - round(lo[tid] / s), qmin, qmax);
    if (row < params.rows) {
      scale[row] = s;
    }
    zps[slot] = select(0u, bitcast<u32>(i32(zp)) & 0xFFu, row < params.rows);
  }
  workgroupBarrier();
  if (tid == 0u) {
    zero_point[quad] = zps[0] | (zps[1] << 8u) | (zps[2] << 16u) | (zps[3] << 24u);
  }
}
