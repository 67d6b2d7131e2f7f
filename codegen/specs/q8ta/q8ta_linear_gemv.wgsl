// q8ta_linear_gemv: one workgroup per output word (4 outputs); its invocations stride over
// the K words of each output's row and the partial sums are reduced in workgroup memory.

var<workgroup> partial: array<vec4<i32>, WORKGROUP_SIZE_X>;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = row_index(wid, num_workgroups);
  if (w >= params.num_words) {
    return;  // the whole workgroup
  }
  var acc = vec4<i32>(0);
  for (var j = 0u; j < 4u; j++) {
    let e = 4u * w + j;
    if (e < params.num_elements) {
      acc[j] = row_dot(e / params.N, e % params.N, lid.x, WORKGROUP_SIZE_X);
    }
  }
  partial[lid.x] = acc;
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid.x < stride) {
      partial[lid.x] += partial[lid.x + stride];
    }
  }
  if (lid.x == 0u) {
    var q = vec4<i32>(0);
    for (var j = 0u; j < 4u; j++) {
      let e = 4u * w + j;
      if (e < params.num_elements) {
        q[j] = linear_output(partial[0][j], e % params.N);
      }
    }
    output[w] = pack_int8(q);
  }
}
