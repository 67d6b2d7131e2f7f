// log: ieee_log (ieee_log.wgsl), below 1 ulp, IEEE edges set on the bits.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_vec4: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<f32>>;
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
// Shared helpers (unary_map.wgsl).
// The entry point of every unary kernel (emitted into their declaration blocks by opgen):
// each invocation maps its 4 vec4s (first_item(): WORKGROUP_SIZE_X apart) through the
// kernel's apply(). All loads are issued before the first store, so each invocation
// keeps 64 bytes in flight.

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
  // past the end: read the last vec4 again, store nothing
  let x0 = input[i0];
  let x1 = input[min(i1, n - 1u)];
  let x2 = input[min(i2, n - 1u)];
  let x3 = input[min(i3, n - 1u)];
  output[i0] = apply(x0);
  if (i1 < n) {
    output[i1] = apply(x1);
  }
  if (i2 < n) {
    output[i2] = apply(x2);
  }
  if (i3 < n) {
    output[i3] = apply(x3);
  }
}
// Shared helpers (float_bits.wgsl).
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
// Shared helpers (ieee_log.wgsl).
// log(x) to below 1 ulp (musl's logf): the bits give x = 2^k * m with m in [sqrt(1/2),
// sqrt(2)) (subnormals normalised in integer arithmetic, so an adapter that flushes
// subnormal float operations still sees them), then log(m) from s = f / (2 + f), f = m - 1,
// by its minimax polynomial in s^2, and k * ln2 in two parts. Edges are set on the bits,
// since adapters differ there (SwiftShader's log(NaN) is +inf): NaN -> NaN, x < 0 (-inf
// too) -> NaN, +-0 -> -inf, +inf -> +inf.
const LOG_LN2_HI: f32 = 6.9313812256e-01;
const LOG_LN2_LO: f32 = 9.0580006145e-06;
const LOG_LG1: f32 = 0.6666666269302368;
const LOG_LG2: f32 = 0.40000972151756287;
const LOG_LG3: f32 = 0.2849878668785095;
const LOG_LG4: f32 = 0.24279078841209412;

fn ieee_log(x: vec4<f32>) -> vec4<f32> {
  let mag = magnitude_bits(x);
  let subnormal = mag < vec4<u32>(0x00800000u);
  // a subnormal's leading bit moved up to bit 23: its exponent field reads 1, and the
  // shift is taken off k below
  let shift = vec4<u32>(23u) - min(firstLeadingBit(max(mag, vec4<u32>(1u))), vec4<u32>(23u));
  let norm = select(mag, mag << shift, subnormal);
  // k and m as musl: adding 1 - 0x3f3504f3 to the exponent field splits at sqrt(2)
  let ix = norm + vec4<u32>(0x3f800000u - 0x3f3504f3u);
  let k = vec4<i32>(ix >> vec4<u32>(23u)) - vec4<i32>(0x7f) -
          select(vec4<i32>(0), vec4<i32>(shift), subnormal);
  let m = bitcast<vec4<f32>>((ix & vec4<u32>(0x007fffffu)) + vec4<u32>(0x3f3504f3u));
  let f = m - vec4<f32>(1.0);
  let s = f / (vec4<f32>(2.0) + f);
  let z = s * s;
  let w = z * z;
  let t1 = w * (vec4<f32>(LOG_LG2) + w * LOG_LG4);
  let t2 = z * (vec4<f32>(LOG_LG1) + w * LOG_LG3);
  let r = t2 + t1;
  let hfsq = 0.5 * f * f;
  let dk = vec4<f32>(k);
  let y = s * (hfsq + r) + dk * LOG_LN2_LO - hfsq + f + dk * LOG_LN2_HI;
  // edges from the bits: -inf for +-0 (built from the zero's bits), NaN for a negative or
  // NaN x, x itself for +inf
  let negative = bitcast<vec4<u32>>(x) > vec4<u32>(0x80000000u);
  var out = select(y, bitcast<vec4<f32>>(mag | vec4<u32>(0xff800000u)), mag == vec4<u32>(0u));
  out = select(out, x, (mag == vec4<u32>(0x7f800000u)) & !negative);
  return select(out, nan_from(x), is_nan(x) | negative);
}
// @opgen-end declarations

// The entry point is in unary_map.wgsl.
fn apply(x: vec4<f32>) -> vec4<f32> {
  return ieee_log(x);
}
