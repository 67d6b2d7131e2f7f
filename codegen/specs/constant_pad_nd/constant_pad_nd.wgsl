// constant_pad_nd: each output element copies its source element when its coordinates
// land inside the input, else writes `value` (bit-exact either way). Each invocation
// writes 4 consecutive elements as one vec4 (tensor buffers are whole vec4s), finding
// their row's source once.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i0 = linear_index(gid, num_workgroups) * 4u;
  if (i0 >= params.num_elements) {
    return;
  }
  let W = params.out_dims[3];
  var row = i0 / W;
  var w = i0 % W;
  var src = row_source(row);
  var v = vec4<f32>(params.value);
  for (var j = 0u; j < 4u && i0 + j < params.num_elements; j++) {
    if (w == W) {  // the next row (W < 4 or a row end inside this vec4)
      row++;
      w = 0u;
      src = row_source(row);
    }
    // a column left of the pad wraps to a huge u32 and fails the bound check
    let in_w = w - params.left[3];
    if (src.y != 0u && in_w < params.in_dims[3]) {
      v[j] = input_load(src.x + in_w);
    }
    w++;
  }
  output_store(i0 / 4u, v);
}

// Output row `row` (over dims 0..2): the input index of its column 0, and whether the
// row lies inside the input (1) or in the padding (0).
fn row_source(row: u32) -> vec2<u32> {
  var rest = row;
  var src = 0u;
  var inside = true;
  var stride = params.in_dims[3];
  for (var d = 2i; d >= 0; d--) {
    let coord = rest % params.out_dims[d];
    rest = rest / params.out_dims[d];
    let in_coord = coord - params.left[d];
    inside = inside && in_coord < params.in_dims[d];
    src += in_coord * stride;
    stride *= params.in_dims[d];
  }
  return vec2<u32>(src, u32(inside));
}
