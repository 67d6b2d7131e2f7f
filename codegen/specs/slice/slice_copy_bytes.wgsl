// slice_copy_bytes: slice_copy for bool tensors whose inner block is not whole words (one
// byte per element, four to a u32 word). Each invocation owns one output word and gathers
// its four elements' bytes, so no two invocations write the same word. inner counts
// elements; num_elements is the output's element count.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  inner: u32,
  in_len: u32,
  out_len: u32,
  start: u32,
  step: u32,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// Shared helpers (../copy/byte_words.wgsl).
// Shared by the gathers of bool tensors (one byte per element, four to a u32 word), emitted
// into their declaration blocks by opgen: each invocation owns one output word and gathers
// its elements' bytes, so no two invocations write the same word. The kernel supplies
// byte_source(e), the input element that output element e reads.

fn byte_at(i: u32) -> u32 {
  return (input[i / 4u] >> (8u * (i % 4u))) & 0xffu;
}

// Output word w: elements 4w..4w+3 that lie below num_elements, each from byte_source.
fn gathered_word(w: u32) -> u32 {
  let first = 4u * w;
  var word = 0u;
  for (var j = 0u; j < 4u && first + j < params.num_elements; j++) {
    word |= byte_at(byte_source(first + j)) << (8u * j);
  }
  return word;
}
// @opgen-end declarations

fn byte_source(e: u32) -> u32 {
  let inner = e % params.inner;
  let rest = e / params.inner;
  let c = rest % params.out_len;
  let outer = rest / params.out_len;
  return (outer * params.in_len + params.start + c * params.step) * params.inner + inner;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (4u * w >= params.num_elements) {
    return;
  }
  output[w] = gathered_word(w);
}
