// reduce_rows: one output element per workgroup, reducing `reduce` input elements that
// lie `inner` apart (the input viewed as [outer, reduce, inner]); MODE picks the sum, the
// mean, the max or the min. The workgroup strides over its elements, then tree-reduces.

const MODE_SUM: u32 = 0u;
const MODE_MEAN: u32 = 1u;
const MODE_MAX: u32 = 2u;
const MODE_MIN: u32 = 3u;

var<workgroup> partial: array<f32, WORKGROUP_SIZE_X>;

// NaN by its bits: shader compilers may fold `x != x` to false
fn is_nan(v: f32) -> bool {
  return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}

// max that propagates NaN, as torch's amax does (WGSL's max may drop a NaN operand)
fn max_nan(a: f32, b: f32) -> f32 {
  return select(max(a, b), select(b, a, is_nan(a)), is_nan(a) || is_nan(b));
}

// min that propagates NaN, as torch's amin does
fn min_nan(a: f32, b: f32) -> f32 {
  return select(min(a, b), select(b, a, is_nan(a)), is_nan(a) || is_nan(b));
}

fn combine(a: f32, b: f32) -> f32 {
  if (MODE == MODE_MAX) {
    return max_nan(a, b);
  }
  if (MODE == MODE_MIN) {
    return min_nan(a, b);
  }
  return a + b;
}

fn write_row(row: u32, lid: u32) {
  let outer = row / params.inner;
  let base = outer * params.reduce * params.inner + row % params.inner;
  // the max and the min start from the row's first element (+-inf would be a constant
  // expression WGSL forbids: Tint rejects it, naga does not)
  var acc = 0.0;
  if ((MODE == MODE_MAX || MODE == MODE_MIN) && params.reduce > 0u) {
    acc = input_load(base);
  }
  for (var k = lid; k < params.reduce; k += WORKGROUP_SIZE_X) {
    acc = combine(acc, input_load(base + k * params.inner));
  }
  partial[lid] = acc;
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid < stride) {
      partial[lid] = combine(partial[lid], partial[lid + stride]);
    }
  }
  if (lid == 0u) {
    let total = partial[0];
    output_store(row, select(total, total / f32(params.reduce), MODE == MODE_MEAN));
  }
}
