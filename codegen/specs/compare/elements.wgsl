// Element kinds: how an operand's graph buffer holds its elements (the specs' KINDS).
// Every buffer is bound as array<u32>; a bool tensor holds one byte per element (0 or 1),
// four to a word, a float16 one two halves to a word, little-endian.
const KIND_F32: u32 = 0u;     // float32: one word per element
const KIND_I32: u32 = 1u;     // int32 (and int64, which the graph holds as int32)
const KIND_BOOL: u32 = 2u;    // bool: one byte per element
const KIND_SCALAR: u32 = 3u;  // no buffer: the op's Scalar argument (in Params)
const KIND_NONE: u32 = 4u;    // no operand (an op with fewer operands)
const KIND_F16: u32 = 5u;     // float16: two halves to a word

// The index of the word that holds element i.
fn word_of(i: u32, kind: u32) -> u32 {
  if (kind == KIND_BOOL) {
    return i / 4u;
  }
  return select(i, i / 2u, kind == KIND_F16);
}

// The bits of element i, given the word that holds it.
fn element_of(word: u32, i: u32, kind: u32) -> u32 {
  if (kind == KIND_BOOL) {
    return (word >> (8u * (i % 4u))) & 0xffu;
  }
  if (kind == KIND_F16) {
    return (word >> (16u * (i % 2u))) & 0xffffu;
  }
  return word;
}

// The four halves of two words.
fn halves_of(w0: u32, w1: u32) -> vec4<u32> {
  return vec4<u32>(w0 & 0xffffu, w0 >> 16u, w1 & 0xffffu, w1 >> 16u);
}

// An element's float32 bits: float16 widened (exactly), the others unchanged.
fn widened(bits: u32, kind: u32) -> u32 {
  if (kind == KIND_F16) {
    return bitcast<u32>(unpack2x16float(bits).x);
  }
  return bits;
}

// Whether an operand has no buffer to read (a Scalar argument, or no operand).
fn no_buffer(kind: u32) -> bool {
  return kind == KIND_SCALAR || kind == KIND_NONE;
}

fn is_float(kind: u32) -> bool {
  return kind == KIND_F32 || kind == KIND_F16;
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
  if (kind == KIND_F16) {
    return (bits & 0x7fffu) != 0u;
  }
  return bits != 0u;
}
