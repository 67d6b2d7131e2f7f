// fill_range: out[i] = start + i * step in the output's dtype (KIND: 0 float32, 1 int32,
// 2 bool, 3 float16); FILL: every element is `start` (full, full_like, zeros, ones,
// scalar_tensor), its bits stored as they are (float16: rounded once, half_bits.wgsl), so
// -0.0, infinities and NaN arrive unchanged. Each invocation writes whole 16-byte units
// (4 words: 4 elements, 8 halves or 16 bools), ITEMS_PER_INVOCATION of them
// WORKGROUP_SIZE_X apart; a unit past the last element holds the sequence's continuation,
// which no reader looks at.

const KIND_F32: u32 = 0u;
const KIND_I32: u32 = 1u;
const KIND_F16: u32 = 3u;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let first = first_item(gid, num_workgroups);
  for (var k = 0u; k < ITEMS_PER_INVOCATION; k++) {
    let u = first + k * WORKGROUP_SIZE_X;
    if (u >= params.num_units) {
      return;
    }
    output[u] = unit(u);
  }
}

fn unit(u: u32) -> vec4<u32> {
  let index = vec4<u32>(4u * u) + vec4<u32>(0u, 1u, 2u, 3u);
  if (KIND == KIND_F32) {
    if (FILL) {
      return vec4<u32>(bitcast<u32>(params.start));
    }
    return bitcast<vec4<u32>>(vec4<f32>(params.start) + vec4<f32>(index) * params.step);
  }
  if (KIND == KIND_I32) {
    return bitcast<vec4<u32>>(vec4<i32>(params.start_int) +
                              bitcast<vec4<i32>>(index) * params.step_int);
  }
  if (KIND == KIND_F16) {
    return half_unit(u);
  }
  return vec4<u32>(0x01010101u * u32(params.start_int));  // bool: 0 or 1 in every byte
}

// Halves 8u..8u + 7: the even ones in the low half of each word.
fn half_unit(u: u32) -> vec4<u32> {
  var even = vec4<f32>(params.start);
  var odd = even;
  if (!FILL) {
    let i = vec4<f32>(vec4<u32>(8u * u) + vec4<u32>(0u, 2u, 4u, 6u));
    even = even + i * params.step;
    odd = odd + (i + 1.0) * params.step;
  }
  return half_bits(even) | (half_bits(odd) << vec4<u32>(16u));
}
