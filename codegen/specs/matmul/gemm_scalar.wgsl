// gemm_scalar: the tiled GEMM (gemm_tile.wgsl) for any row length, its loaders
// gemm_loads_scalar.wgsl's.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  gemm_tile(lid, wid);
}
