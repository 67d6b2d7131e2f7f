// @generated from codegen/specs/apply_rotary_emb_hf/rotary_emb_hf.wgsl - DO NOT EDIT.
// wgsl-sha256: e065a331a01771d857345d6a329b3885c018c74603c865133447a845f5277ebc
#pragma once

#include <cstdint>

inline constexpr const char* kRotaryEmbHfWGSL =
    R"wgsl(// rotary_emb_hf: rotate-half RoPE. One invocation per (i, i + half) pair of a head; pairs
// [0, q_pairs) belong to xq, the rest to xk. Tables are read at row start_pos + s.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  S: u32,
  Hq: u32,
  Hk: u32,
  D: u32,
  half: u32,
  start_pos: u32,
  q_pairs: u32,
  num_pairs: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> xq: array<f32>;
@group(0) @binding(2) var<storage, read> xk: array<f32>;
@group(0) @binding(3) var<storage, read> cos_table: array<f32>;
@group(0) @binding(4) var<storage, read> sin_table: array<f32>;
@group(0) @binding(5) var<storage, read_write> xq_out: array<f32>;
@group(0) @binding(6) var<storage, read_write> xk_out: array<f32>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

// Rotated values of the pair (x1, x2) = (x[i], x[i + half]) at table row t.
fn rotate(x1: f32, x2: f32, t: u32, i: u32) -> vec2<f32> {
  let lo = t * params.D + i;
  let hi = lo + params.half;
  return vec2<f32>(x1 * cos_table[lo] - x2 * sin_table[lo],
                   x2 * cos_table[hi] + x1 * sin_table[hi]);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let p = linear_index(gid, num_workgroups);
  if (p >= params.num_pairs) {
    return;
  }
  let is_q = p < params.q_pairs;
  let pair = select(p - params.q_pairs, p, is_q);
  let heads = select(params.Hk, params.Hq, is_q);
  let i = pair % params.half;
  let row = pair / params.half;  // (b, s, h) row of the [B, S, H, D] tensor
  let s = (row / heads) % params.S;
  let t = params.start_pos + s;
  let base = row * params.D + i;
  if (is_q) {
    let r = rotate(xq[base], xq[base + params.half], t, i);
    xq_out[base] = r.x;
    xq_out[base + params.half] = r.y;
  } else {
    let r = rotate(xk[base], xk[base + params.half], t, i);
    xk_out[base] = r.x;
    xk_out[base + params.half] = r.y;
  }
}
)wgsl";

inline constexpr uint32_t kRotaryEmbHfWorkgroupSizeX = 256;
inline constexpr uint32_t kRotaryEmbHfWorkgroupSizeY = 1;
inline constexpr uint32_t kRotaryEmbHfWorkgroupSizeZ = 1;
