// arg_reduce_rows: argmax / argmin (TAKE_MIN). One output index per workgroup: the
// position, within its row, of the row's largest (smallest) of `reduce` input elements
// that lie `inner` apart (the input viewed as [outer, reduce, inner]). Order as torch: a
// NaN beats every number (the first NaN wins), of equal values the first wins (-0.0
// equals 0.0). Elem is f32 (IS_FLOAT: float32, or float16 on the _f16 twins, read
// through the input's view) or i32 (arg_reduce_rows_i32: int32 and int64 tensors, which
// the graph holds as int32); the kernel's helper supplies element(i), input element i.
// Each invocation scans its strided share in order, then the workgroup tree-reduces
// (value, index) pairs.

const NONE: u32 = 0xffffffffu;  // an invocation that saw no element

var<workgroup> best_value: array<Elem, WORKGROUP_SIZE_X>;
var<workgroup> best_index: array<u32, WORKGROUP_SIZE_X>;

// NaN by its bits: shader compilers may fold `x != x` to false
fn is_nan_value(v: Elem) -> bool {
  return IS_FLOAT && (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}

// Whether element (v, k) comes before (w, j) in torch's order.
fn wins(v: Elem, k: u32, w: Elem, j: u32) -> bool {
  if (k == NONE || j == NONE) {
    return j == NONE && k != NONE;
  }
  let nan_v = is_nan_value(v);
  let nan_w = is_nan_value(w);
  if (nan_v || nan_w) {
    return nan_v && (!nan_w || k < j);
  }
  if (v == w) {
    return k < j;
  }
  return select(v > w, v < w, TAKE_MIN);
}

fn write_row(row: u32, lid: u32) {
  let outer = row / params.inner;
  let base = outer * params.reduce * params.inner + row % params.inner;
  var value = Elem();
  var index = NONE;
  for (var k = lid; k < params.reduce; k += WORKGROUP_SIZE_X) {
    let v = element(base + k * params.inner);
    if (wins(v, k, value, index)) {
      value = v;
      index = k;
    }
  }
  best_value[lid] = value;
  best_index[lid] = index;
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid < stride && wins(best_value[lid + stride], best_index[lid + stride],
                             best_value[lid], best_index[lid])) {
      best_value[lid] = best_value[lid + stride];
      best_index[lid] = best_index[lid + stride];
    }
  }
  if (lid == 0u) {
    output[row] = i32(best_index[0]);
  }
}
