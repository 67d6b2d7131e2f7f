// slice_scatter: one 32-bit word per invocation (a float32 or int32 element, or four bools
// of an inner block of whole words), from src inside the slice, else from self.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  inner: u32,
  in_len: u32,
  start: u32,
  step: u32,
  slice_len: u32,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> output: array<u32>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// Shared helpers (slice_source.wgsl).
// Shared by slice_scatter's kernels: output element (or word) e lies at coordinate c along
// the scattered dim of [outer, in_len, inner]; it takes src's element (outer, j, inner) of
// [outer, slice_len, inner] when c = start + j * step with j < slice_len, else self's.

const NOT_IN_SLICE: u32 = 0xffffffffu;

// src's element for output element e, or NOT_IN_SLICE where e keeps self's.
fn src_offset(e: u32) -> u32 {
  let inner = e % params.inner;
  let rest = e / params.inner;
  let c = rest % params.in_len;
  let outer = rest / params.in_len;
  if (c < params.start) {
    return NOT_IN_SLICE;
  }
  let j = (c - params.start) / params.step;
  if ((c - params.start) % params.step != 0u || j >= params.slice_len) {
    return NOT_IN_SLICE;
  }
  return (outer * params.slice_len + j) * params.inner + inner;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let e = linear_index(gid, num_workgroups);
  if (e >= params.num_elements) {
    return;
  }
  let k = src_offset(e);
  if (k == NOT_IN_SLICE) {
    output[e] = input[e];
  } else {
    output[e] = src[k];
  }
}
