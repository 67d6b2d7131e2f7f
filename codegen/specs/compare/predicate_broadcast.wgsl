// predicate_broadcast: a bool output from up to three broadcast operands (comparisons,
// logical ops, where on bool values). OP picks the predicate. Each invocation owns whole
// output words (4 bools each, ITEMS_PER_INVOCATION words WORKGROUP_SIZE_X apart), so no
// two invocations write one word; elements past the last are written as false.
// Comparisons are decided on integer keys of the float bits, never on float compares:
// NaN compares unequal to everything (IEEE, as torch) and -0.0 equals 0.0 on every
// adapter, whatever the compiler assumes about NaN.

const OP_EQ: u32 = 0u;
const OP_NE: u32 = 1u;
const OP_LT: u32 = 2u;
const OP_LE: u32 = 3u;
const OP_GT: u32 = 4u;
const OP_GE: u32 = 5u;
const OP_NOT: u32 = 6u;
const OP_AND: u32 = 7u;
const OP_OR: u32 = 8u;
const OP_WHERE: u32 = 9u;

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
    var result = vec4<bool>(false);
    for (var j = 0u; j < 4u; j++) {
      result[j] = predicate(quad.a[j], quad.b[j], quad.c[j]);
    }
    let index = vec4<u32>(4u * q) + vec4<u32>(0u, 1u, 2u, 3u);
    output[q] = pack_bools(result & (index < vec4<u32>(params.num_elements)));
  }
}

fn predicate(a: u32, b: u32, c: u32) -> bool {
  switch OP {
    case OP_NOT: {
      return !truthy(a, A_KIND);
    }
    case OP_AND: {
      return truthy(a, A_KIND) && truthy(b, B_KIND);
    }
    case OP_OR: {
      return truthy(a, A_KIND) || truthy(b, B_KIND);
    }
    case OP_WHERE: {
      return select(truthy(c, C_KIND), truthy(b, B_KIND), truthy(a, A_KIND));
    }
    default: {
      return compare(a, b);
    }
  }
}

// a <OP> b in torch's common dtype: integers (bool as 0/1) when neither side is float,
// else float32 (an integer operand converted, as torch promotes it; float16 widened
// exactly, which orders as the halves do).
fn compare(a: u32, b: u32) -> bool {
  var b_bits = b;
  var b_kind = B_KIND;
  if (B_KIND == KIND_SCALAR) {  // the Scalar overloads: an integral scalar against an
    if (params.scalar_is_int != 0u) {  // integer tensor compares as an integer
      b_bits = bitcast<u32>(params.scalar_int);
      b_kind = KIND_I32;
    } else {
      b_bits = bitcast<u32>(params.scalar);
      b_kind = KIND_F32;
    }
  }
  if (!is_float(A_KIND) && !is_float(b_kind)) {
    return ordered(bitcast<i32>(a), bitcast<i32>(b_bits));
  }
  let x = float_bits(a, A_KIND);
  let y = float_bits(b_bits, b_kind);
  if (is_nan(x) || is_nan(y)) {
    return OP == OP_NE;
  }
  return ordered(float_key(x), float_key(y));
}

fn ordered(x: i32, y: i32) -> bool {
  switch OP {
    case OP_EQ: {
      return x == y;
    }
    case OP_NE: {
      return x != y;
    }
    case OP_LT: {
      return x < y;
    }
    case OP_LE: {
      return x <= y;
    }
    case OP_GT: {
      return x > y;
    }
    default: {
      return x >= y;
    }
  }
}

fn float_bits(bits: u32, kind: u32) -> u32 {
  if (is_float(kind)) {
    return widened(bits, kind);
  }
  return bitcast<u32>(f32(bitcast<i32>(bits)));  // int32, or a bool's 0/1
}

fn is_nan(bits: u32) -> bool {
  return (bits & 0x7fffffffu) > 0x7f800000u;
}

// An integer that orders non-NaN floats as their values do: the magnitude's bits,
// negated for a negative sign (so -0.0 and 0.0 are both 0).
fn float_key(bits: u32) -> i32 {
  let magnitude = i32(bits & 0x7fffffffu);
  return select(magnitude, -magnitude, (bits >> 31u) != 0u);
}
