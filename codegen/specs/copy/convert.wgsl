// convert: a numeric dtype conversion between float32, float16, int32 and bool (int 2
// becomes 2.0, never the bit pattern), four elements per invocation. IN_KIND and OUT_KIND
// say what the buffers hold: float32 and int32 one 32-bit word per element, float16 two
// halves to a word, bool one byte (0 or 1) per element, four to a word, so an invocation
// owns the whole output words of its four elements. To float16: rounded as torch rounds
// (half_bits.wgsl: nearest even, inf past 65504).
// float -> int truncates toward zero like torch (WGSL saturates out-of-range values);
// -> bool is "non-zero" (NaN is true, -0.0 false: decided on the bits).

const KIND_F32: u32 = 0u;
const KIND_I32: u32 = 1u;
const KIND_BOOL: u32 = 2u;
const KIND_F16: u32 = 3u;

// float32 and float16 inputs are both read as float32 bits
fn floats_in() -> bool {
  return IN_KIND == KIND_F32 || IN_KIND == KIND_F16;
}

// Elements 4q..4q+3 of the input, as raw bits (a bool as 0 or 1). Every buffer is whole
// 16-byte units, so the last quad may read past the last element.
fn load_quad(q: u32) -> vec4<u32> {
  if (IN_KIND == KIND_BOOL) {
    return (vec4<u32>(input[q]) >> vec4<u32>(0u, 8u, 16u, 24u)) & vec4<u32>(0xffu);
  }
  if (IN_KIND == KIND_F16) {
    return bitcast<vec4<u32>>(unpack_halves(vec2<u32>(input[2u * q], input[2u * q + 1u])));
  }
  return vec4<u32>(input[4u * q], input[4u * q + 1u], input[4u * q + 2u], input[4u * q + 3u]);
}

fn to_bool(v: vec4<u32>) -> vec4<bool> {
  if (floats_in()) {
    return (v & vec4<u32>(0x7fffffffu)) != vec4<u32>(0u);
  }
  return v != vec4<u32>(0u);
}

fn to_float(v: vec4<u32>) -> vec4<u32> {
  if (floats_in()) {
    return v;
  }
  return bitcast<vec4<u32>>(vec4<f32>(bitcast<vec4<i32>>(v)));  // int32, or bool 0/1
}

fn to_int(v: vec4<u32>) -> vec4<u32> {
  if (floats_in()) {
    return bitcast<vec4<u32>>(vec4<i32>(bitcast<vec4<f32>>(v)));
  }
  return v;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let q = linear_index(gid, num_workgroups);
  if (4u * q >= params.num_elements) {
    return;
  }
  let v = load_quad(q);
  if (OUT_KIND == KIND_BOOL) {
    let b = select(vec4<u32>(0u), vec4<u32>(1u), to_bool(v));
    output[q] = b.x | (b.y << 8u) | (b.z << 16u) | (b.w << 24u);
    return;
  }
  if (OUT_KIND == KIND_F16) {
    let h = pack_halves(bitcast<vec4<f32>>(to_float(v)));
    output[2u * q] = h.x;
    output[2u * q + 1u] = h.y;
    return;
  }
  let r = select(to_int(v), to_float(v), OUT_KIND == KIND_F32);
  output[4u * q] = r.x;
  output[4u * q + 1u] = r.y;
  output[4u * q + 2u] = r.z;
  output[4u * q + 3u] = r.w;
}
