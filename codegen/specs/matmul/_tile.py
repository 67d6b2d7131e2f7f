"""gemm_tile.wgsl's arithmetic, for the kernels built on it (not a spec file: the loader
skips `_` files). The float32 kernels and the packed float16 twins stage f32 and
multiply-add in f32 (HALF_RUNS false, Mul f32); the shader-f16 twins of the kernels that
take TILE_HALF_RUNS stage halves and multiply-add in f16 over runs of 16 k, each run's sum
added into the f32 accumulators (docs/numerics.md)."""

TILE_F32 = {"HALF_RUNS": "false"}  # consts of every kernel on gemm_tile.wgsl
TILE_MUL = {"Mul": "f32"}  # its aliases
TILE_HALF_RUNS = {"f16_consts": {"HALF_RUNS": "true"}, "f16_aliases": {"Mul": "f16"}}

# A case's atol on a shader-f16 tile route, for unit-normal operands and K terms: each
# f16 multiply-add rounds its run sum (an error of at most 2^-11 of it), and the run sums
# of products of unit normals are of the output's scale, sqrt(K). The atol is 1e-2 of that
# scale, as export --fp16's criterion for whole models (HALF_CRITERION): the largest error
# of the cases here, over up to 1.4 M outputs, is 8.3e-3 * sqrt(K) (K = 8 on lavapipe,
# docs/numerics.md); a product left out or counted twice is off by about 1.
RUN = 16
RUN_ATOL_PER_SQRT_K = 1e-2


def run_atol(k: int) -> float:
    """atol of a float16 case whose output sums `k` unit-normal products in f16 runs."""
    return RUN_ATOL_PER_SQRT_K * k ** 0.5
