// Shared by the kernels that read A and B as vec4s (gemm_vec4 and its TILE_M variants,
// gemv_nn; composed into their modules by opgen): load_a and load_b for gemm_tile.wgsl,
// for rows whose length is a multiple of 4, so every vec4 a caller asks for is whole.
//
// gemm_tile stages them in their storage form (staged_a, staged_b: `Bind(raw=True)`'s
// a_raw, b_raw), loaded whether or not the vec4 lies inside (from a clamped index), and
// widens them, zeros outside (inside_a, inside_b), as it stores them to workgroup
// memory: held across a K step, float16 loads take half the registers of float32 ones,
// and no load result is consumed before the step's FMAs. Widened right after the load,
// and zeroed there, gemm_vec4_m32's float16 twin waited for three of its five loads
// within each step (0.68x its float32 twin, H100, tools/probes/probe_sass.py).

alias StagedA = a_raw;
alias StagedB = b_raw;

fn a_index(z: u32, m: u32, k: u32) -> u32 {
  return (z * params.a_batch_stride + m * params.K + k) / 4u;
}

fn b_index(z: u32, r: u32, c: u32) -> u32 {
  let base = z * params.b_batch_stride;
  if (B_IS_NK) {
    return (base + r * params.K + c) / 4u;
  }
  return (base + r * params.N + c) / 4u;
}

fn inside_a(m: u32, k: u32, end: u32) -> bool {
  return m < params.M && k < end;
}

fn inside_b(r: u32, c: u32, end: u32) -> bool {
  if (B_IS_NK) {
    return r < params.N && c < end;
  }
  return r < end && c < params.N;
}

fn staged_a(z: u32, m: u32, k: u32, end: u32) -> StagedA {
  return a_load_raw(min(a_index(z, m, k), arrayLength(&a) - 1u));
}

fn staged_b(z: u32, r: u32, c: u32, end: u32) -> StagedB {
  return b_load_raw(min(b_index(z, r, c), arrayLength(&b) - 1u));
}

fn widen_a(v: StagedA, inside: bool) -> vec4<f32> {
  return select(vec4<f32>(), a_widen(v), inside);
}

fn widen_b(v: StagedB, inside: bool) -> vec4<f32> {
  return select(vec4<f32>(), b_widen(v), inside);
}

fn load_a(z: u32, m: u32, k: u32, end: u32) -> vec4<f32> {
  return widen_a(staged_a(z, m, k, end), inside_a(m, k, end));
}

fn load_b(z: u32, r: u32, c: u32, end: u32) -> vec4<f32> {
  return widen_b(staged_b(z, r, c, end), inside_b(r, c, end));
}
