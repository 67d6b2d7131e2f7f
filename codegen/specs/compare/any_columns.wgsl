// any_columns: any() over the middle of an [outer, reduce, inner] view (inner > 1). Each
// invocation owns one output word: 4 consecutive outputs, whose inputs are mostly
// neighbours in memory, each scanned along the reduced dims until a non-zero element.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  num_outputs: u32,
  num_words: u32,
  reduce: u32,
  inner: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
override KIND: u32 = 0u;
const WORKGROUP_SIZE_X: u32 = 64u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// Shared helpers (elements.wgsl).
// Element kinds: how an operand's graph buffer holds its elements (the specs' KINDS).
// Every buffer is bound as array<u32>; a bool tensor holds one byte per element (0 or 1),
// four to a word, little-endian.
const KIND_F32: u32 = 0u;     // float32: one word per element
const KIND_I32: u32 = 1u;     // int32 (and int64, which the graph holds as int32)
const KIND_BOOL: u32 = 2u;    // bool: one byte per element
const KIND_SCALAR: u32 = 3u;  // no buffer: the op's Scalar argument (in Params)
const KIND_NONE: u32 = 4u;    // no operand (an op with fewer operands)

// The index of the word that holds element i.
fn word_of(i: u32, kind: u32) -> u32 {
  return select(i, i / 4u, kind == KIND_BOOL);
}

// The bits of element i, given the word that holds it.
fn element_of(word: u32, i: u32, kind: u32) -> u32 {
  if (kind == KIND_BOOL) {
    return (word >> (8u * (i % 4u))) & 0xffu;
  }
  return word;
}

// The four bools of one word.
fn bytes_of(word: u32) -> vec4<u32> {
  return (vec4<u32>(word) >> vec4<u32>(0u, 8u, 16u, 24u)) & vec4<u32>(0xffu);
}

// Four bools as one word of a bool buffer.
fn pack_bools(v: vec4<bool>) -> u32 {
  let b = select(vec4<u32>(0u), vec4<u32>(1u), v);
  return b.x | (b.y << 8u) | (b.z << 16u) | (b.w << 24u);
}

// Whether an element is non-zero, as torch reads a tensor as bool: NaN is true, -0.0 is
// false (decided on the bits, which no float optimisation can rewrite).
fn truthy(bits: u32, kind: u32) -> bool {
  if (kind == KIND_F32) {
    return (bits & 0x7fffffffu) != 0u;
  }
  return bits != 0u;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let word = linear_index(gid, num_workgroups);
  if (word >= params.num_words) {
    return;
  }
  var result = vec4<bool>(false);
  for (var j = 0u; j < 4u; j++) {
    let t = 4u * word + j;
    if (t >= params.num_outputs) {
      break;
    }
    let start = (t / params.inner) * params.reduce * params.inner + t % params.inner;
    for (var r = 0u; r < params.reduce; r++) {
      let i = start + r * params.inner;
      if (truthy(element_of(input[word_of(i, KIND)], i, KIND), KIND)) {
        result[j] = true;
        break;
      }
    }
  }
  output[word] = pack_bools(result);
}
