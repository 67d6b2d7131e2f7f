// cat_copy_bytes: one entry of a bool cat whose rows are not whole words (one byte per
// element, four to a u32 word). Each invocation owns one word of the output and rewrites
// the bytes of it that belong to this entry, keeping the others: the entries' dispatches
// run one after another, so a word shared by two entries is never written by two
// invocations at once. inner counts elements; num_elements is the output's element count.
// Output element [o, c, r] of [outer, out_len, inner] is this entry's when
// offset <= c < offset + in_len, and reads its [o, c - offset, r].

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  inner: u32,
  in_len: u32,
  out_len: u32,
  offset: u32,
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
// @opgen-end declarations

fn byte_at(i: u32) -> u32 {
  return (input[i / 4u] >> (8u * (i % 4u))) & 0xffu;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  let first = 4u * w;
  if (first >= params.num_elements) {
    return;
  }
  var word = output[w];
  var mine = false;
  for (var j = 0u; j < 4u && first + j < params.num_elements; j++) {
    let e = first + j;
    let r = e % params.inner;
    let row = e / params.inner;
    let c = row % params.out_len;
    let o = row / params.out_len;
    if (c >= params.offset && c < params.offset + params.in_len) {
      let b = byte_at((o * params.in_len + c - params.offset) * params.inner + r);
      word = (word & ~(0xffu << (8u * j))) | (b << (8u * j));
      mine = true;
    }
  }
  if (mine) {
    output[w] = word;
  }
}
