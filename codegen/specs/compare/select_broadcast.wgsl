// select_broadcast: where(condition, self, other) into a float32 or int32 output, the
// three operands broadcast (a: condition, b: self, c: other). Each invocation writes
// whole 16-byte units of the output (4 elements; ITEMS_PER_INVOCATION of them, WORKGROUP_SIZE_X apart). The chosen
// element's bits pass unchanged (NaN payloads, -0.0); an operand of another dtype is
// converted to the output's, as torch promotes it.

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  out_dims: array<vec4<u32>, 2>,
  a_strides: array<vec4<u32>, 2>,
  b_strides: array<vec4<u32>, 2>,
  c_strides: array<vec4<u32>, 2>,
  num_elements: u32,
  num_quads: u32,
  rank: u32,
  same_shape: u32,
  scalar: f32,
  scalar_int: i32,
  scalar_is_int: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<u32>;
@group(0) @binding(2) var<storage, read> b: array<u32>;
@group(0) @binding(3) var<storage, read> c: array<u32>;
@group(0) @binding(4) var<storage, read_write> output: array<u32>;
override A_KIND: u32 = 0u;
override B_KIND: u32 = 0u;
override C_KIND: u32 = 0u;
override OUT_FLOAT: bool = true;
const WORKGROUP_SIZE_X: u32 = 128u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
const ITEMS_PER_INVOCATION: u32 = 4u;
// The invocation's first item; its item k is first + k * WORKGROUP_SIZE_X.
fn first_item(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  let lane = gid.x % WORKGROUP_SIZE_X;
  return (linear_index(gid, num_workgroups) - lane) * ITEMS_PER_INVOCATION + lane;
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
// Shared helpers (operands.wgsl).
// Operands of the broadcasting elementwise kernels: a, b and c (A_KIND, B_KIND, C_KIND
// say how each holds its elements; an op with fewer operands binds a dummy and gives it
// KIND_NONE or KIND_SCALAR, and it is never read). Dims are right-aligned into eight
// slots; a broadcast operand dim has stride 0. gather(q) gives each operand's bits at
// output elements 4q..4q + 3 (0 past the last element).

struct Quad {
  a: vec4<u32>,
  b: vec4<u32>,
  c: vec4<u32>,
};

fn load_a(i: u32) -> u32 {
  return element_of(a[word_of(i, A_KIND)], i, A_KIND);
}

fn load_b(i: u32) -> u32 {
  if (B_KIND >= KIND_SCALAR) {
    return 0u;
  }
  return element_of(b[word_of(i, B_KIND)], i, B_KIND);
}

fn load_c(i: u32) -> u32 {
  if (C_KIND >= KIND_SCALAR) {
    return 0u;
  }
  return element_of(c[word_of(i, C_KIND)], i, C_KIND);
}

// Elements 4q..4q + 3 of an operand of the output's shape: one word of bools, or four
// words (a tensor buffer is whole 16-byte units, so the last quad stays inside it).
fn same_shape_a(q: u32) -> vec4<u32> {
  if (A_KIND == KIND_BOOL) {
    return bytes_of(a[q]);
  }
  return vec4<u32>(a[4u * q], a[4u * q + 1u], a[4u * q + 2u], a[4u * q + 3u]);
}

fn same_shape_b(q: u32) -> vec4<u32> {
  if (B_KIND >= KIND_SCALAR) {
    return vec4<u32>(0u);
  }
  if (B_KIND == KIND_BOOL) {
    return bytes_of(b[q]);
  }
  return vec4<u32>(b[4u * q], b[4u * q + 1u], b[4u * q + 2u], b[4u * q + 3u]);
}

fn same_shape_c(q: u32) -> vec4<u32> {
  if (C_KIND >= KIND_SCALAR) {
    return vec4<u32>(0u);
  }
  if (C_KIND == KIND_BOOL) {
    return bytes_of(c[q]);
  }
  return vec4<u32>(c[4u * q], c[4u * q + 1u], c[4u * q + 2u], c[4u * q + 3u]);
}

// The a, b and c element indices of output element e.
fn sources(e: u32) -> vec3<u32> {
  var rest = e;
  var src = vec3<u32>(0u);
  for (var d = 7i; d >= 8i - i32(params.rank); d--) {
    let size = params.out_dims[d / 4][d % 4];
    let coord = rest % size;
    rest = rest / size;
    src += coord * vec3<u32>(params.a_strides[d / 4][d % 4], params.b_strides[d / 4][d % 4],
                             params.c_strides[d / 4][d % 4]);
  }
  return src;
}

fn gather(q: u32) -> Quad {
  if (params.same_shape != 0u) {
    return Quad(same_shape_a(q), same_shape_b(q), same_shape_c(q));
  }
  var quad = Quad(vec4<u32>(0u), vec4<u32>(0u), vec4<u32>(0u));
  let e0 = 4u * q;
  let row = params.out_dims[1][3];
  if (e0 % row + 3u < row) {  // one row: find the sources once, step the innermost strides
    let step = vec3<u32>(params.a_strides[1][3], params.b_strides[1][3], params.c_strides[1][3]);
    var s = sources(e0);
    for (var j = 0u; j < 4u; j++) {
      quad.a[j] = load_a(s.x);
      quad.b[j] = load_b(s.y);
      quad.c[j] = load_c(s.z);
      s += step;
    }
  } else {
    for (var j = 0u; j < 4u && e0 + j < params.num_elements; j++) {
      let s = sources(e0 + j);
      quad.a[j] = load_a(s.x);
      quad.b[j] = load_b(s.y);
      quad.c[j] = load_c(s.z);
    }
  }
  return quad;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let first = first_item(gid, num_workgroups);
  for (var k = 0u; k < ITEMS_PER_INVOCATION; k++) {
    let q = first + k * WORKGROUP_SIZE_X;
    if (q >= params.num_quads) {
      return;
    }
    let quad = gather(q);
    let condition = vec4<bool>(truthy(quad.a.x, A_KIND), truthy(quad.a.y, A_KIND),
                               truthy(quad.a.z, A_KIND), truthy(quad.a.w, A_KIND));
    let result = select(converted(quad.c, C_KIND), converted(quad.b, B_KIND), condition);
    output[4u * q] = result.x;
    output[4u * q + 1u] = result.y;
    output[4u * q + 2u] = result.z;
    output[4u * q + 3u] = result.w;
  }
}

// Elements of an operand as the output's dtype (OUT_FLOAT: float32, else int32).
fn converted(v: vec4<u32>, kind: u32) -> vec4<u32> {
  if (OUT_FLOAT) {
    if (kind == KIND_F32) {
      return v;
    }
    return bitcast<vec4<u32>>(vec4<f32>(bitcast<vec4<i32>>(v)));  // int32, or bool 0/1
  }
  if (kind == KIND_F32) {
    return bitcast<vec4<u32>>(vec4<i32>(bitcast<vec4<f32>>(v)));
  }
  return v;
}
