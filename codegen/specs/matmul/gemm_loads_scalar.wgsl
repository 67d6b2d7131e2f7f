// Shared by the kernels that read A and B one value at a time (gemm_scalar,
// gemm_small_scalar; composed into their modules by opgen): load_a and load_b
// for gemm_tile.wgsl and gemm_small_tile.wgsl, for any row length. Each vector's values
// are read one by one, those past a row's end are zero, and components are named, never
// indexed at runtime (an indexed vector may be spilled to memory).

// a[i..i + 3] and b[i..i + 3], the components from `valid` on zero
fn load4_a(i: u32, valid: u32) -> vec4<f32> {
  var v = vec4<f32>();
  if (valid > 0u) {
    v.x = a_load(i);
  }
  if (valid > 1u) {
    v.y = a_load(i + 1u);
  }
  if (valid > 2u) {
    v.z = a_load(i + 2u);
  }
  if (valid > 3u) {
    v.w = a_load(i + 3u);
  }
  return v;
}

fn load4_b(i: u32, valid: u32) -> vec4<f32> {
  var v = vec4<f32>();
  if (valid > 0u) {
    v.x = b_load(i);
  }
  if (valid > 1u) {
    v.y = b_load(i + 1u);
  }
  if (valid > 2u) {
    v.z = b_load(i + 2u);
  }
  if (valid > 3u) {
    v.w = b_load(i + 3u);
  }
  return v;
}
fn load_a(z: u32, m: u32, k: u32, end: u32) -> vec4<f32> {
  if (m >= params.M || k >= end) {
    return vec4<f32>();
  }
  return load4_a(z * params.a_batch_stride + m * params.K + k, end - k);
}

fn load_b(z: u32, r: u32, c: u32, end: u32) -> vec4<f32> {
  let base = z * params.b_batch_stride;
  if (B_IS_NK) {
    if (r >= params.N || c >= end) {
      return vec4<f32>();
    }
    return load4_b(base + r * params.K + c, end - c);
  }
  if (r >= end || c >= params.N) {
    return vec4<f32>();
  }
  return load4_b(base + r * params.N + c, params.N - c);
}
