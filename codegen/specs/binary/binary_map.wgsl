// The entry point and broadcast indexing of the binary kernels (composed into their
// modules by opgen): each invocation writes 4 output vec4s, WORKGROUP_SIZE_X
// apart. Equal shapes read vec4s directly; otherwise a vec4 inside one row finds its
// sources once and steps the innermost strides, and one that crosses a row end finds each
// element's sources. The kernel file says its element type (`alias Elem = f32;`) and
// combine(); load_lhs, load_rhs and store_out come from binary_views.wgsl (float tensors
// through the bindings' views, computed in f32 whatever they hold) or binary_words.wgsl
// (the arrays as declared; rhs elements converted to Elem: pow's int32 exponents become
// f32, as torch promotes them).
const_assert ITEMS_PER_INVOCATION == 4u;  // i0..i3 below

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i0 = first_item(gid, num_workgroups);
  let n = params.num_vec4;
  if (i0 >= n) {
    return;
  }
  let i1 = i0 + WORKGROUP_SIZE_X;
  let i2 = i1 + WORKGROUP_SIZE_X;
  let i3 = i2 + WORKGROUP_SIZE_X;
  if (params.same_shape != 0u) {
    // all loads before the first store; past the end: read the last vec4 again, store nothing
    let x0 = load_lhs(i0);
    let y0 = load_rhs(i0);
    let x1 = load_lhs(min(i1, n - 1u));
    let y1 = load_rhs(min(i1, n - 1u));
    let x2 = load_lhs(min(i2, n - 1u));
    let y2 = load_rhs(min(i2, n - 1u));
    let x3 = load_lhs(min(i3, n - 1u));
    let y3 = load_rhs(min(i3, n - 1u));
    store_out(i0, combine(x0, y0));
    if (i1 < n) {
      store_out(i1, combine(x1, y1));
    }
    if (i2 < n) {
      store_out(i2, combine(x2, y2));
    }
    if (i3 < n) {
      store_out(i3, combine(x3, y3));
    }
    return;
  }
  store_out(i0, broadcast_vec4(i0));
  if (i1 < n) {
    store_out(i1, broadcast_vec4(i1));
  }
  if (i2 < n) {
    store_out(i2, broadcast_vec4(i2));
  }
  if (i3 < n) {
    store_out(i3, broadcast_vec4(i3));
  }
}

fn lhs_at(i: u32) -> Elem {
  return load_lhs(i / 4u)[i % 4u];
}

fn rhs_at(i: u32) -> Elem {
  return load_rhs(i / 4u)[i % 4u];
}

// The lhs and rhs element indices of output element e.
fn sources(e: u32) -> vec2<u32> {
  var rest = e;
  var src = vec2<u32>(0u);
  for (var d = 7i; d >= 8i - i32(params.rank); d--) {
    let size = params.out_dims[d / 4][d % 4];
    let coord = rest % size;
    rest = rest / size;
    src += coord * vec2<u32>(params.self_strides[d / 4][d % 4], params.other_strides[d / 4][d % 4]);
  }
  return src;
}

// Output elements 4v..4v + 3.
fn broadcast_vec4(v: u32) -> vec4<Elem> {
  let e0 = 4u * v;
  let row = params.out_dims[1][3];
  var x = vec4<Elem>();
  var y = vec4<Elem>();
  if (e0 % row + 3u < row) {  // one row: step the innermost strides
    let s = sources(e0);
    let step = vec2<u32>(params.self_strides[1][3], params.other_strides[1][3]);
    let s1 = s + step;
    let s2 = s1 + step;
    let s3 = s2 + step;
    x = vec4<Elem>(lhs_at(s.x), lhs_at(s1.x), lhs_at(s2.x), lhs_at(s3.x));
    y = vec4<Elem>(rhs_at(s.y), rhs_at(s1.y), rhs_at(s2.y), rhs_at(s3.y));
  } else {
    for (var j = 0u; j < 4u && e0 + j < params.num_elements; j++) {
      let s = sources(e0 + j);
      x[j] = lhs_at(s.x);
      y[j] = rhs_at(s.y);
    }
  }
  return combine(x, y);
}
