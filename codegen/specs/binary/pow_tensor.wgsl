// pow_tensor: out = pow(lhs, rhs) for a float32 base and a float32 exponent, with NumPy
// broadcasting (binary_map.wgsl); the IEEE rules are in pow_ieee.wgsl.

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
// Shared helpers (../unary/float_bits.wgsl).
// IEEE classification and sign handling on the bits: GPU compilers may fold x != x or
// rewrite a float compare-and-select into min/max, which drop NaN and the sign of zero
// (docs/numerics.md). Special results are built from the input's bits, never from a
// constant NaN or infinity (Tint rejects those as constant expressions).

fn magnitude_bits(x: vec4<f32>) -> vec4<u32> {
  return bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu);
}

fn is_nan(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) > vec4<u32>(0x7f800000u);
}

fn is_inf(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) == vec4<u32>(0x7f800000u);
}

fn is_zero(x: vec4<f32>) -> vec4<bool> {
  return magnitude_bits(x) == vec4<u32>(0u);
}

fn sign_bit(x: vec4<f32>) -> vec4<u32> {
  return bitcast<vec4<u32>>(x) & vec4<u32>(0x80000000u);
}

// |magnitude| with the sign of `sign_of`
fn copy_sign(magnitude: vec4<f32>, sign_of: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(magnitude_bits(magnitude) | sign_bit(sign_of));
}

// a quiet NaN (any sign), computed from x
fn nan_from(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(bitcast<vec4<u32>>(x) | vec4<u32>(0x7fc00000u));
}

// an infinity with the sign of x
fn inf_like(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(sign_bit(x) | vec4<u32>(0x7f800000u));
}

// a zero with the sign of x
fn zero_like(x: vec4<f32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(sign_bit(x));
}
// Shared helpers (../unary/exp_reduced.wgsl).
// exp(x) to about 1 ulp over the whole f32 range (the builtin may be off by 3 + 2|x| ulp,
// 2e-6 relative at x = 88 on lavapipe): x = n ln2 + r with |r| <= ln2 / 2 (Cody-Waite:
// n * LN2_HI is exact for |n| < 256), exp(r) by its Taylor polynomial to r^7, scaled by
// 2^n in two exact power-of-two steps, so results down to the subnormals round once and
// large x overflow to inf. NaN passes; -inf gives 0, +inf gives inf.
const LN2_HI: f32 = 0.693145751953125;  // ln 2 to 16 bits
const LN2_LO: f32 = 1.4286068203094172e-06;  // ln 2 - LN2_HI
const LOG2_E: f32 = 1.4426950408889634;

// 2^k for k in [-126, 127]
fn two_pow(k: vec4<i32>) -> vec4<f32> {
  return bitcast<vec4<f32>>(vec4<u32>(k + vec4<i32>(127)) << vec4<u32>(23u));
}

fn exp_reduced(x: vec4<f32>) -> vec4<f32> {
  // exp(-104) < 2^-150 rounds to 0; exp(89) > FLT_MAX
  let xc = clamp(x, vec4<f32>(-104.0), vec4<f32>(89.0));
  let n = round(xc * LOG2_E);
  let r = (xc - n * LN2_HI) - n * LN2_LO;
  var p = vec4<f32>(1.0 / 5040.0);
  p = fma(p, r, vec4<f32>(1.0 / 720.0));
  p = fma(p, r, vec4<f32>(1.0 / 120.0));
  p = fma(p, r, vec4<f32>(1.0 / 24.0));
  p = fma(p, r, vec4<f32>(1.0 / 6.0));
  p = fma(p, r, vec4<f32>(0.5));
  p = fma(p, r, vec4<f32>(1.0));
  p = fma(p, r, vec4<f32>(1.0));
  let k = vec4<i32>(n);  // in [-150, 128]: two steps of [-75, 64]
  let k1 = k >> vec4<u32>(1u);
  let y = p * two_pow(k1) * two_pow(k - k1);
  return select(y, x, is_nan(x));
}
// Shared helpers (pow_ieee.wgsl).
// pow(x, e) elementwise with C99's (and torch's float32 CPU) rules, for exponents that
// vary per element (pow.Tensor_Tensor; pow.Tensor_Scalar has its own fast paths):
// e = ±0 gives 1 (NaN x too) and x = 1 gives 1 (NaN e too); otherwise NaN on either side
// gives NaN. |x|^e is exp(e ln|x|), negated when x < 0 and e is an odd integer; a finite
// negative x with a non-integer e gives NaN. pow(±0, e) and pow(±inf, e) follow the sign
// of e (±0 and ±inf keep x's sign for an odd integer e), pow(-1, ±inf) = 1, and
// |x| < 1 or > 1 with e = ±inf give 0 or inf. e = 1 and e = 2 are x and x * x (correctly
// rounded, as torch); other results are within a few ulp of torch's (exp_reduced's 1 ulp
// plus ln|x|'s rounding times |e|). Uses float_bits.wgsl and exp_reduced.wgsl.

fn pow_ieee(x: vec4<f32>, e: vec4<f32>) -> vec4<f32> {
  let a = abs(x);
  let e_nan = is_nan(e);
  let e_integer = (floor(e) == e) & !e_nan;  // the infinities count as even integers
  let e_odd = e_integer & (floor(e * 0.5) * 2.0 != e);
  // log(NaN) is not NaN on every adapter (SwiftShader): NaN x is set below
  var m = exp_reduced(e * log(a));
  // |x| = 0 or inf: inf when (|x| = inf) == (e > 0), else 0; NaN for a NaN e
  let zero_or_inf = is_zero(x) | is_inf(x);
  let edge = select(vec4<f32>(0.0), inf_like(a), (e > vec4<f32>(0.0)) == is_inf(x));
  m = select(m, select(edge, nan_from(e), e_nan), zero_or_inf);
  // |x| = 1: 1 (also for e = ±inf or NaN); -1 with a non-integer e becomes NaN below
  m = select(m, vec4<f32>(1.0), magnitude_bits(x) == vec4<u32>(0x3f800000u));
  let negative = sign_bit(x) != vec4<u32>(0u);
  let finite_negative = negative & !zero_or_inf & !is_nan(x);
  m = select(m, nan_from(x), finite_negative & !e_integer);
  m = select(m, -m, negative & e_odd);
  m = select(m, x, is_nan(x));
  m = select(m, x * x, e == vec4<f32>(2.0));
  m = select(m, x, e == vec4<f32>(1.0));
  return select(m, vec4<f32>(1.0), is_zero(e));
}
// @opgen-end declarations

alias Elem = f32;

fn combine(x: vec4<f32>, y: vec4<f32>) -> vec4<f32> {
  return pow_ieee(x, y);
}
