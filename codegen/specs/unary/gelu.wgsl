// gelu: out = x * Phi(x), Phi the standard normal CDF (approximate='none'), or
// x * 0.5 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))) (approximate='tanh').
// Phi is computed from erfc on |x|, so the negative tail keeps its relative accuracy
// (x * Phi(x) rather than x - x * Phi(-x)), and x multiplies a factor in [0, 1], so no
// finite input overflows.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_vec4: u32,
  tanh_approximation: u32,
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
// @opgen-end declarations

// erfc(z) for z >= 0 as t * exp(-z^2 + p(t)), t = 1 / (1 + z / 2), with the classic
// Chebyshev-fitted polynomial p (fractional error below 1.2e-7 for every z >= 0).
fn erfc_nonnegative(z: vec4<f32>) -> vec4<f32> {
  let t = 1.0 / (1.0 + 0.5 * z);
  var p = vec4<f32>(0.17087277);
  p = fma(p, t, vec4<f32>(-0.82215223));
  p = fma(p, t, vec4<f32>(1.48851587));
  p = fma(p, t, vec4<f32>(-1.13520398));
  p = fma(p, t, vec4<f32>(0.27886807));
  p = fma(p, t, vec4<f32>(-0.18628806));
  p = fma(p, t, vec4<f32>(0.09678418));
  p = fma(p, t, vec4<f32>(0.37409196));
  p = fma(p, t, vec4<f32>(1.00002368));
  p = fma(p, t, vec4<f32>(-1.26551223));
  return t * exp(p - z * z);
}

fn normal_cdf(x: vec4<f32>) -> vec4<f32> {
  // Phi(x) = erfc(-x / sqrt(2)) / 2; for x > 0 it is 1 - Phi(-x)
  let half_tail = 0.5 * erfc_nonnegative(abs(x) * 0.70710678118654752);
  return select(half_tail, 1.0 - half_tail, x > vec4<f32>(0.0));
}

fn tanh_factor(x: vec4<f32>) -> vec4<f32> {
  // tanh saturates to +-1 in f32 past 10; clamping keeps implementations that compute it
  // from exp() away from inf / inf
  let u = clamp(0.7978845608028654 * (x + 0.044715 * x * x * x), vec4<f32>(-10.0),
                vec4<f32>(10.0));
  return 0.5 + 0.5 * tanh(u);
}

// The entry point is in unary_map.wgsl.
fn apply(x: vec4<f32>) -> vec4<f32> {
  if (params.tanh_approximation != 0u) {
    return x * tanh_factor(x);
  }
  return x * normal_cdf(x);
}
