// gemm_vec4: the tiled GEMM (gemm_tile.wgsl) with vec4 loads, for rows whose length is a
// multiple of 4 (K, and N when B is [K][N]): every vec4 a loader asks for is whole.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  gemm_tile(lid, wid);
}
