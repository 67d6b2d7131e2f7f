// index_tensor_bytes: index_tensor for bool tensors (one byte per element, four to a u32
// word). Each invocation owns one output word and gathers its four elements' bytes, so no
// two invocations write the same word; ALIGNED (self's last dim kept and a multiple of 4):
// the four bytes are one aligned input word.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  out_dims: array<vec4<u32>, 2>,
  kept_strides: array<vec4<u32>, 2>,
  index_strides: array<vec4<u32>, 8>,
  dim_sizes: vec4<u32>,
  dim_strides: vec4<u32>,
  present: vec4<u32>,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read> idx0: array<i32>;
@group(0) @binding(3) var<storage, read> idx1: array<i32>;
@group(0) @binding(4) var<storage, read> idx2: array<i32>;
@group(0) @binding(5) var<storage, read> idx3: array<i32>;
@group(0) @binding(6) var<storage, read_write> output: array<u32>;
override ALIGNED: bool = false;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// Shared helpers (index_source.wgsl).
// The input element of output element e (index_tensor's kernels): e's coordinates over the
// 8 right-aligned output dims, each adding its kept-dim stride and moving the offset into
// each index tensor; then each present entry adds its (wrapped, clamped) index times the
// stride of the dim it indexes.

fn slot(v: array<vec4<u32>, 2>, k: u32) -> u32 {
  return v[k / 4u][k % 4u];
}

// Entry j's strides along output dim k, as a vec4 over j.
fn index_strides_at(k: u32) -> vec4<u32> {
  let s = params.index_strides;
  return vec4<u32>(s[k / 4u][k % 4u], s[2u + k / 4u][k % 4u], s[4u + k / 4u][k % 4u],
                   s[6u + k / 4u][k % 4u]);
}

// Entry j's index at offset pos of its tensor, wrapped once and clamped into its dim.
fn entry_index(j: u32, pos: u32) -> u32 {
  var v = 0i;
  switch j {
    case 0u: { v = idx0[pos]; }
    case 1u: { v = idx1[pos]; }
    case 2u: { v = idx2[pos]; }
    default: { v = idx3[pos]; }
  }
  let size = i32(params.dim_sizes[j]);
  v = select(v, v + size, v < 0);
  return u32(clamp(v, 0, size - 1));
}

fn source_index(e: u32) -> u32 {
  var rest = e;
  var src = 0u;
  var pos = vec4<u32>(0u);
  for (var k = 7i; k >= 0 && rest != 0u; k--) {
    let size = slot(params.out_dims, u32(k));
    let c = rest % size;
    rest = rest / size;
    src += c * slot(params.kept_strides, u32(k));
    pos += c * index_strides_at(u32(k));
  }
  for (var j = 0u; j < 4u; j++) {
    if (params.present[j] != 0u) {
      src += entry_index(j, pos[j]) * params.dim_strides[j];
    }
  }
  return src;
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
  return source_index(e);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (4u * w >= params.num_elements) {
    return;
  }
  if (ALIGNED) {
    output[w] = input[source_index(4u * w) / 4u];
    return;
  }
  output[w] = gathered_word(w);
}
