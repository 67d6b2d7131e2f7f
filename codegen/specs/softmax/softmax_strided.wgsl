// softmax_strided: softmax over a strided dim: one invocation per line of N elements
// `inner` apart, so neighbouring invocations read neighbouring elements.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  N: u32,
  inner: u32,
  num_lines: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
override LOG: bool = false;
override SAFE: bool = false;
const WORKGROUP_SIZE_X: u32 = 64u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// Shared helpers (softmax_common.wgsl).
// Shared by the softmax kernels (emitted into their declaration blocks by opgen; not a
// standalone module). NaN is carried explicitly: adapters' exp and log need not
// propagate it (SwiftShader's log(NaN) is +inf).

// NaN and -inf by their bits: compilers may fold `x != x`, and WGSL has no -inf
// constant Tint accepts
fn is_nan(v: f32) -> bool {
  return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}

fn is_neg_inf(v: f32) -> bool {
  return bitcast<u32>(v) == 0xff800000u;
}

// exp(d): exactly 0 for d = -inf, NaN for NaN, whatever the adapter's exp does there
fn exp_or_zero(d: f32) -> f32 {
  return select(select(exp(d), 0.0, is_neg_inf(d)), d, is_nan(d));
}

// x minus the line's max. With SAFE (_safe_softmax) a -inf element stays -inf even in an
// all -inf line, where plain softmax has -inf - -inf = NaN: that line's sum is then 0.
fn shifted(x: f32, line_max: f32) -> f32 {
  return select(x - line_max, x, SAFE && is_neg_inf(x));
}

// The output of an element whose shifted value is `d`, given the line's sum of exp(d):
// softmax, or log_softmax when LOG (-inf stays -inf). A NaN sum (a NaN, +inf or all -inf
// line, as in torch) makes the whole line NaN; with SAFE an all -inf line (sum 0: any
// other line holds an exp(0)) gives zeros, as torch's _safe_softmax.
fn softmax_value(d: f32, sum: f32) -> f32 {
  if (SAFE && sum == 0.0) {
    return 0.0;
  }
  if (is_nan(sum)) {
    return sum;
  }
  if (LOG) {
    return d - log(sum);
  }
  return exp_or_zero(d) / sum;
}

// --- the last-dim kernels' workgroup reductions

var<workgroup> partial: array<f32, WORKGROUP_SIZE_X>;

// Tree reduction of `partial` (max when take_max, else sum); every invocation gets the
// result, and the last barrier lets the caller write `partial` again.
fn workgroup_reduce(lid: u32, take_max: bool) -> f32 {
  for (var stride = WORKGROUP_SIZE_X / 2u; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (lid < stride) {
      let other = partial[lid + stride];
      partial[lid] = select(partial[lid] + other, max(partial[lid], other), take_max);
    }
  }
  workgroupBarrier();
  let result = partial[0];
  workgroupBarrier();
  return result;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let line = linear_index(gid, num_workgroups);
  if (line >= params.num_lines || params.N == 0u) {
    return;
  }
  let inner = params.inner;
  let base = (line / inner) * params.N * inner + line % inner;
  // from the line's first element, as softmax_last_dim
  var line_max = input[base];
  for (var k = 1u; k < params.N; k++) {
    line_max = max(line_max, input[base + k * inner]);
  }
  var line_sum = 0.0;
  for (var k = 0u; k < params.N; k++) {
    line_sum += exp_or_zero(shifted(input[base + k * inner], line_max));
  }
  for (var k = 0u; k < params.N; k++) {
    let i = base + k * inner;
    output[i] = softmax_value(shifted(input[i], line_max), line_sum);
  }
}
