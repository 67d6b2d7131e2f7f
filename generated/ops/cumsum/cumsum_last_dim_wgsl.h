// @generated from codegen/specs/cumsum/cumsum_last_dim.wgsl - DO NOT EDIT.
// wgsl-sha256: 98b17d67370cb3a45efaa487b81b16124e096f834d662aa7cf8475c84730933c
#pragma once

#include <cstdint>

inline constexpr const char* kCumsumLastDimWGSL =
    R"wgsl(// cumsum_last_dim: one workgroup scans a contiguous row, one chunk of ITEMS x
// WORKGROUP_SIZE_X elements at a time: each invocation adds up ITEMS neighbours, the
// workgroup scans those totals (Hillis-Steele), and a carry joins the chunks.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  N: u32,
  inner: u32,
  num_lines: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
override IN_FLOAT: bool = true;
override IN_BOOL: bool = false;
override OUT_FLOAT: bool = true;
const WORKGROUP_SIZE_X: u32 = 128u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The workgroup's row index in a 1-D grid of rows that may spill into y.
fn row_index(wid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return wid.y * num_workgroups.x + wid.x;
}
// Shared helpers (cumsum_common.wgsl).
// Shared by the cumsum kernels (emitted into their declaration blocks by opgen; not a
// standalone module). Values travel as the output dtype's bits in a u32: IN_BOOL,
// IN_FLOAT and OUT_FLOAT say what the input and output hold (a bool input is one byte
// per element, four to a word, and counts as 0 or 1).

// input element i converted to the output dtype (float -> int truncates, as torch)
fn load(i: u32) -> u32 {
  if (IN_BOOL) {
    let count = (input[i / 4u] >> (8u * (i % 4u))) & 0xffu;
    return select(count, bitcast<u32>(f32(count)), OUT_FLOAT);
  }
  let bits = input[i];
  if (IN_FLOAT == OUT_FLOAT) {
    return bits;
  }
  if (OUT_FLOAT) {
    return bitcast<u32>(f32(bitcast<i32>(bits)));
  }
  return bitcast<u32>(i32(bitcast<f32>(bits)));
}

// a + b in the output dtype (u32 addition is the wrapping i32 sum); 0u is zero in both
fn add(a: u32, b: u32) -> u32 {
  if (OUT_FLOAT) {
    return bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  }
  return a + b;
}
// @opgen-end declarations

const ITEMS: u32 = 4u;

var<workgroup> totals: array<u32, WORKGROUP_SIZE_X>;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  let lid = lid3.x;
  // uniform control flow: the whole workgroup leaves together
  if (row >= params.num_lines) {
    return;
  }
  let base = row * params.N;
  var carry = 0u;
  for (var start = 0u; start < params.N; start += ITEMS * WORKGROUP_SIZE_X) {
    let first = start + lid * ITEMS;
    var running: array<u32, ITEMS>;
    var run = 0u;
    for (var j = 0u; j < ITEMS; j++) {
      if (first + j < params.N) {
        run = add(run, load(base + first + j));
      }
      running[j] = run;
    }
    totals[lid] = run;
    // inclusive scan of the invocations' totals
    for (var offset = 1u; offset < WORKGROUP_SIZE_X; offset *= 2u) {
      workgroupBarrier();
      var t = totals[lid];
      if (lid >= offset) {
        t = add(totals[lid - offset], t);
      }
      workgroupBarrier();
      totals[lid] = t;
    }
    workgroupBarrier();
    let before = select(0u, totals[max(lid, 1u) - 1u], lid > 0u);
    let prefix = add(carry, before);
    for (var j = 0u; j < ITEMS; j++) {
      if (first + j < params.N) {
        output[base + first + j] = add(prefix, running[j]);
      }
    }
    carry = add(carry, totals[WORKGROUP_SIZE_X - 1u]);
    // every invocation has read `totals` before the next chunk writes it
    workgroupBarrier();
  }
}
)wgsl";

inline constexpr uint32_t kCumsumLastDimWorkgroupSizeX = 128;
inline constexpr uint32_t kCumsumLastDimWorkgroupSizeY = 1;
inline constexpr uint32_t kCumsumLastDimWorkgroupSizeZ = 1;
