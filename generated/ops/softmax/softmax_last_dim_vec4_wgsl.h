// @generated from codegen/specs/softmax/softmax_last_dim_vec4.wgsl - DO NOT EDIT.
// wgsl-sha256: 0a5c69833fb1344efb91fb6e43e695452afb169e6c1f24822d586dc035c82e07
#pragma once

#include <cstdint>

inline constexpr const char* kSoftmaxLastDimVec4WGSL =
    R"wgsl(// softmax_last_dim_vec4: softmax_last_dim on rows of whole vec4s.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  N: u32,
  inner: u32,
  num_lines: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<f32>>;
override LOG: bool = false;
override SAFE: bool = false;
const WORKGROUP_SIZE_X: u32 = 128u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The workgroup's row index in a 1-D grid of rows that may spill into y.
fn row_index(wid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return wid.y * num_workgroups.x + wid.x;
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

fn exp4(d: vec4<f32>) -> vec4<f32> {
  return vec4<f32>(exp_or_zero(d.x), exp_or_zero(d.y), exp_or_zero(d.z), exp_or_zero(d.w));
}

fn shifted4(x: vec4<f32>, row_max: f32) -> vec4<f32> {
  return vec4<f32>(shifted(x.x, row_max), shifted(x.y, row_max), shifted(x.z, row_max),
                   shifted(x.w, row_max));
}

fn softmax4(d: vec4<f32>, sum: f32) -> vec4<f32> {
  return vec4<f32>(softmax_value(d.x, sum), softmax_value(d.y, sum), softmax_value(d.z, sum),
                   softmax_value(d.w, sum));
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  let lid = lid3.x;
  // uniform control flow: the whole workgroup leaves together
  if (row >= params.num_lines || params.N == 0u) {
    return;
  }
  let n4 = params.N / 4u;
  let base = row * n4;
  // from the row's first element, as softmax_last_dim
  var local_max = vec4<f32>(input[base].x);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    local_max = max(local_max, input[base + c]);
  }
  partial[lid] = max(max(local_max.x, local_max.y), max(local_max.z, local_max.w));
  let row_max = workgroup_reduce(lid, true);
  var local_sum = vec4<f32>(0.0);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    local_sum += exp4(shifted4(input[base + c], row_max));
  }
  partial[lid] = (local_sum.x + local_sum.y) + (local_sum.z + local_sum.w);
  let row_sum = workgroup_reduce(lid, false);
  for (var c = lid; c < n4; c += WORKGROUP_SIZE_X) {
    output[base + c] = softmax4(shifted4(input[base + c], row_max), row_sum);
  }
}
)wgsl";

inline constexpr uint32_t kSoftmaxLastDimVec4WorkgroupSizeX = 128;
inline constexpr uint32_t kSoftmaxLastDimVec4WorkgroupSizeY = 1;
inline constexpr uint32_t kSoftmaxLastDimVec4WorkgroupSizeZ = 1;
