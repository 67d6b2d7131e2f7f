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
  if (no_buffer(B_KIND)) {
    return 0u;
  }
  return element_of(b[word_of(i, B_KIND)], i, B_KIND);
}

fn load_c(i: u32) -> u32 {
  if (no_buffer(C_KIND)) {
    return 0u;
  }
  return element_of(c[word_of(i, C_KIND)], i, C_KIND);
}

// Elements 4q..4q + 3 of an operand of the output's shape: one word of bools, two of
// halves, or four words (a tensor buffer is whole 16-byte units, so the last quad stays
// inside it).
fn same_shape_a(q: u32) -> vec4<u32> {
  if (A_KIND == KIND_BOOL) {
    return bytes_of(a[q]);
  }
  if (A_KIND == KIND_F16) {
    return halves_of(a[2u * q], a[2u * q + 1u]);
  }
  return vec4<u32>(a[4u * q], a[4u * q + 1u], a[4u * q + 2u], a[4u * q + 3u]);
}

fn same_shape_b(q: u32) -> vec4<u32> {
  if (no_buffer(B_KIND)) {
    return vec4<u32>(0u);
  }
  if (B_KIND == KIND_BOOL) {
    return bytes_of(b[q]);
  }
  if (B_KIND == KIND_F16) {
    return halves_of(b[2u * q], b[2u * q + 1u]);
  }
  return vec4<u32>(b[4u * q], b[4u * q + 1u], b[4u * q + 2u], b[4u * q + 3u]);
}

fn same_shape_c(q: u32) -> vec4<u32> {
  if (no_buffer(C_KIND)) {
    return vec4<u32>(0u);
  }
  if (C_KIND == KIND_BOOL) {
    return bytes_of(c[q]);
  }
  if (C_KIND == KIND_F16) {
    return halves_of(c[2u * q], c[2u * q + 1u]);
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
