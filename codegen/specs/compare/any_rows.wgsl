// any_rows: any() over rows (the reduced dims are the innermost: inner == 1). One
// workgroup per output word: 4 rows of 64 lanes each, every lane striding over its row;
// a lane that meets a non-zero element sets its row's flag, and lane 0 packs the 4
// flags into the word (rows past the last are false).

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
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The workgroup's row index in a 1-D grid of rows that may spill into y.
fn row_index(wid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return wid.y * num_workgroups.x + wid.x;
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

const LANES: u32 = 64u;
const_assert WORKGROUP_SIZE_X == 4u * LANES;

var<workgroup> found: array<atomic<u32>, 4>;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let word = row_index(wid, num_workgroups);
  if (lid.x < 4u) {  // explicitly, before anyone may set a flag
    atomicStore(&found[lid.x], 0u);
  }
  workgroupBarrier();
  let row = 4u * word + lid.x / LANES;
  if (row < params.num_outputs) {
    let start = row * params.reduce;
    for (var r = lid.x % LANES; r < params.reduce; r += LANES) {
      let i = start + r;
      if (truthy(element_of(input[word_of(i, KIND)], i, KIND), KIND)) {
        atomicStore(&found[lid.x / LANES], 1u);
        break;
      }
    }
  }
  workgroupBarrier();
  if (lid.x == 0u && word < params.num_words) {
    output[word] = atomicLoad(&found[0]) | (atomicLoad(&found[1]) << 8u) |
                   (atomicLoad(&found[2]) << 16u) | (atomicLoad(&found[3]) << 24u);
  }
}
