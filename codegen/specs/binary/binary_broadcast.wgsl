// binary_broadcast: out = lhs <OP> alpha * rhs on float32 with NumPy broadcasting. Dims are
// right-aligned into eight slots; a broadcast operand dim has stride 0.
// OP: 0 add, 1 sub, 2 mul (alpha is 1 for mul), 3 true division, 4 minimum, 5 maximum.
// The entry point and the indexing are in binary_map.wgsl.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  out_dims: array<vec4<u32>, 2>,
  self_strides: array<vec4<u32>, 2>,
  other_strides: array<vec4<u32>, 2>,
  alpha: f32,
  num_elements: u32,
  num_vec4: u32,
  rank: u32,
  same_shape: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> lhs: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> rhs: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> output: array<vec4<f32>>;
override OP: u32 = 0u;
const WORKGROUP_SIZE_X: u32 = 128u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
const ITEMS_PER_INVOCATION: u32 = 4u;
// The invocation's first item; its item k is first + k * WORKGROUP_SIZE_X.
fn first_item(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  let lane = gid.x % WORKGROUP_SIZE_X;
  return (linear_index(gid, num_workgroups) - lane) * ITEMS_PER_INVOCATION + lane;
}
// Shared helpers (binary_map.wgsl).
// The entry point and broadcast indexing of the binary kernels (emitted into their
// declaration blocks by opgen): each invocation writes 4 output vec4s, WORKGROUP_SIZE_X
// apart. Equal shapes read vec4s directly; otherwise a vec4 inside one row finds its
// sources once and steps the innermost strides, and one that crosses a row end finds each
// element's sources. The kernel file says its element type (`alias Elem = f32;`) and
// combine(); rhs elements are converted to Elem (the identity for add/sub/mul/div; pow's
// int32 exponents become f32, as torch promotes them).
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
    let x0 = lhs[i0];
    let y0 = vec4<Elem>(rhs[i0]);
    let x1 = lhs[min(i1, n - 1u)];
    let y1 = vec4<Elem>(rhs[min(i1, n - 1u)]);
    let x2 = lhs[min(i2, n - 1u)];
    let y2 = vec4<Elem>(rhs[min(i2, n - 1u)]);
    let x3 = lhs[min(i3, n - 1u)];
    let y3 = vec4<Elem>(rhs[min(i3, n - 1u)]);
    output[i0] = combine(x0, y0);
    if (i1 < n) {
      output[i1] = combine(x1, y1);
    }
    if (i2 < n) {
      output[i2] = combine(x2, y2);
    }
    if (i3 < n) {
      output[i3] = combine(x3, y3);
    }
    return;
  }
  output[i0] = broadcast_vec4(i0);
  if (i1 < n) {
    output[i1] = broadcast_vec4(i1);
  }
  if (i2 < n) {
    output[i2] = broadcast_vec4(i2);
  }
  if (i3 < n) {
    output[i3] = broadcast_vec4(i3);
  }
}

fn lhs_at(i: u32) -> Elem {
  return lhs[i / 4u][i % 4u];
}

fn rhs_at(i: u32) -> Elem {
  return Elem(rhs[i / 4u][i % 4u]);
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
// @opgen-end declarations

alias Elem = f32;

fn magnitude(v: vec4<f32>) -> vec4<u32> {
  return bitcast<vec4<u32>>(v) & vec4<u32>(0x7fffffffu);
}

// x / y with IEEE results where Vulkan leaves division undefined (a zero, infinite or NaN
// or tiny or huge divisor): x / ±0 = ±inf (sign of x times sign of y), 0 / 0 = NaN, finite / ±inf = ±0,
// inf / inf = NaN; NaN propagates. Infinities and NaN are built from the bits (no
// constant NaN or inf).
fn divide(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
  let sign = (bitcast<vec4<u32>>(x) ^ bitcast<vec4<u32>>(y)) & vec4<u32>(0x80000000u);
  let mx = magnitude(x);
  let my = magnitude(y);
  let inf = vec4<u32>(0x7f800000u);
  let nan = (mx > inf) | (my > inf) | ((mx == vec4<u32>(0u)) & (my == vec4<u32>(0u))) |
            ((mx == inf) & (my == inf));
  // a divisor outside [2^-126, 2^126] is scaled into it with the dividend (exact)
  let scale = select(select(vec4<f32>(1.0), vec4<f32>(4.0), my < vec4<u32>(0x00800000u)),
                     vec4<f32>(0.25), my > vec4<u32>(0x7e800000u));
  var q = (x * scale) / (y * scale);
  q = select(q, bitcast<vec4<f32>>(sign | inf), my == vec4<u32>(0u));
  q = select(q, bitcast<vec4<f32>>(sign), (my == inf) & (mx < inf));
  return select(q, bitcast<vec4<f32>>(inf | vec4<u32>(0x00400000u) | mx), nan);
}

// An order-preserving integer key with -0.0 below 0.0 (IEEE 754-2019 minimum/maximum):
// the magnitude, bit-complemented for a set sign.
fn order_key(v: vec4<f32>) -> vec4<i32> {
  let m = bitcast<vec4<i32>>(magnitude(v));
  return select(m, ~m, bitcast<vec4<u32>>(v) >= vec4<u32>(0x80000000u));
}

// torch.minimum / maximum: a NaN on either side gives NaN (self's if both are);
// minimum(-0.0, 0.0) = -0.0 and maximum(-0.0, 0.0) = 0.0 in either order (torch's CPU
// kernel gives either zero, by its vector or scalar path). Bits are moved, never computed
// on, so no compiler min/max rewrite can drop a NaN or a zero's sign.
fn pick(x: vec4<f32>, y: vec4<f32>, take_min: bool) -> vec4<f32> {
  let inf = vec4<u32>(0x7f800000u);
  let kx = order_key(x);
  let ky = order_key(y);
  let take_y = select(ky > kx, ky < kx, take_min);
  let nan_x = magnitude(x) > inf;
  let nan_y = magnitude(y) > inf;
  return select(x, y, (take_y | nan_y) & !nan_x);
}

fn combine(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
  switch OP {
    case 0u: { return x + params.alpha * y; }
    case 1u: { return x - params.alpha * y; }
    case 2u: { return x * y; }
    case 4u: { return pick(x, y, true); }
    case 5u: { return pick(x, y, false); }
    default: { return divide(x, y); }
  }
}

