// upsample_nearest2d: each output pixel copies input[ih, iw] with ATen's legacy nearest
// source index ih = floor(oh * IH / OH) (integer division, not half-pixel). Each
// invocation writes 4 consecutive pixels as one vec4 (tensor buffers are whole vec4s),
// finding their row's source once and stepping the source column without dividing.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i0 = linear_index(gid, num_workgroups) * 4u;
  if (i0 >= params.num_elements) {
    return;
  }
  var row = i0 / params.OW;
  var ow = i0 - row * params.OW;
  var src = row_source(row);
  // column ow's source floor(ow * IW / OW) as (quotient, remainder), stepped per pixel
  var col = vec2<u32>(ow * params.IW / params.OW, 0u);
  col.y = ow * params.IW - col.x * params.OW;
  if (ow + 4u <= params.OW && i0 + 4u <= params.num_elements) {  // one row: no loop
    let c1 = next_column(col);
    let c2 = next_column(c1);
    let c3 = next_column(c2);
    let last = params.IW - 1u;
    output_store(i0 / 4u, vec4<f32>(input_load(src + min(col.x, last)),
                                    input_load(src + min(c1.x, last)),
                                    input_load(src + min(c2.x, last)),
                                    input_load(src + min(c3.x, last))));
    return;
  }
  var v = vec4<f32>();
  for (var j = 0u; j < 4u && i0 + j < params.num_elements; j++) {
    if (ow == params.OW) {  // the next row (OW < 4 or a row end inside this vec4)
      row++;
      ow = 0u;
      src = row_source(row);
      col = vec2<u32>(0u);
    }
    v[j] = input_load(src + min(col.x, params.IW - 1u));
    ow++;
    col = next_column(col);
  }
  output_store(i0 / 4u, v);
}

// The source column of the next output column: (quotient, remainder) of ow * IW / OW
// advanced by IW / OW.
fn next_column(col: vec2<u32>) -> vec2<u32> {
  let next = col + vec2<u32>(params.col_step, params.col_rem);
  if (next.y >= params.OW) {
    return vec2<u32>(next.x + 1u, next.y - params.OW);
  }
  return next;
}

// The input index of column 0 of the source row of output row `row` (plane * OH + oh).
fn row_source(row: u32) -> u32 {
  let plane = row / params.OH;
  let oh = row - plane * params.OH;
  return (plane * params.IH + min(oh * params.IH / params.OH, params.IH - 1u)) * params.IW;
}
