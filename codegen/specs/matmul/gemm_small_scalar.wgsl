// gemm_small_scalar: gemm_small_tile.wgsl's 32x32 tiles with scalar loads
// (gemm_loads_scalar.wgsl), for row lengths that are not multiples of 4 and few rows (e.g.
// attention over 197 tokens: its scores have N = 197 columns, its context K = 197).

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  gemm_small_tile(lid, wid);
}
