// gemm_tile.wgsl's staged loads for a kernel whose load_a and load_b compute float32
// values, zeros outside (gemm_scalar, conv2d_gemm128, linear_q4gsw's q4gsw_gemm): staged
// as loaded, nothing to widen or mask. Kernels that read vec4 views stage them in storage
// form instead (gemm_loads_vec4.wgsl).

alias StagedA = vec4<f32>;
alias StagedB = vec4<f32>;

fn staged_a(z: u32, m: u32, k: u32, end: u32) -> StagedA {
  return load_a(z, m, k, end);
}

fn staged_b(z: u32, r: u32, c: u32, end: u32) -> StagedB {
  return load_b(z, r, c, end);
}

fn inside_a(m: u32, k: u32, end: u32) -> bool {
  return true;
}

fn inside_b(r: u32, c: u32, end: u32) -> bool {
  return true;
}

fn widen_a(v: StagedA, inside: bool) -> vec4<f32> {
  return v;
}

fn widen_b(v: StagedB, inside: bool) -> vec4<f32> {
  return v;
}
