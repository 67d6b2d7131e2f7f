// gemm_vec4, its TILE_M variants and gemm_scalar: the tiled GEMM (gemm_tile.wgsl), its
// loaders the dispatch's: gemm_vec4's vec4 loads for rows whose length is a multiple of 4
// (K, and N when B is [K][N]: every vec4 a loader asks for is whole), gemm_scalar's for
// any row length.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  gemm_tile(lid, wid);
}
