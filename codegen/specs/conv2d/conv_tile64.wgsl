// The 64x64 tile of the conv GEMMs (conv2d_gemm, conv2d_stem_gemm, conv_transpose2d_gemm;
// composed into their modules by opgen): 16x16 threads compute 64 output channels x 64
// output pixels, 4x4 per thread, from vec4 tiles in workgroup memory. A K step is BK input
// channels (BK k of the flattened K in conv2d_stem_gemm). Two buffers of each tile: a step
// computes from one while the next step's entries are stored into the other, so one
// barrier per step suffices.

const BM: u32 = 64u;  // output channels per tile
const BN: u32 = 64u;  // output pixels per tile
const BK: u32 = 16u;  // input channels (stem: k) per K step
const ROW4: u32 = 16u;  // vec4s per tile row (BM / 4 == BN / 4)
const TILE: u32 = 256u;  // vec4s per tile (BK * ROW4)

var<workgroup> a_tile: array<vec4<f32>, 512>;  // [buffer][k][m / 4]: 4 output channels per vec4
var<workgroup> b_tile: array<vec4<f32>, 512>;  // [buffer][k][n / 4]: 4 output pixels per vec4
