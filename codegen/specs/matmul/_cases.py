"""The GEMM family's float32 cases (not a spec file: the loader skips `_` files; the
float16 ones are in _half_cases.py): every route of mm, bmm, addmm and linear on shapes
that take it, tile and split-K edges, IEEE specials, resizes and each guard's negative
case."""

from codegen.language import Case
from codegen.graph.inputs import rand, randn, tensor

NAN, INF = float("nan"), float("inf")

MM_CASES = [
    # 2 x 57 tiles of 128x128 (the second tile row holding 65 rows)
    Case("vec4_tiles", (randn(193, 8), randn(8, 7296)), route="gemm_vec4"),
    Case("odd_shapes", (randn(37, 29), randn(29, 41)), route="gemm_scalar"),
    # one 32x128 tile, K (65 steps of 8) in 13 slices of 5 steps
    Case("split_k", (randn(9, 520), randn(520, 12)), route="gemm_split_sum"),
    Case("one_row", (randn(1, 7), randn(7, 3))),
    # fewer rows per workgroup where 128-row tiles would leave SMs idle or uneven:
    # 161 rows in 3 x 67 tiles of 64 (the last holding 33 rows); 65 rows in 3 x 133
    # tiles of 32 (the last holding one row); then K (64 steps) split across them: 33
    # rows in 50 tiles of 64 and 5 slices of 13 steps, 9 rows in 17 tiles of 32 and
    # 13 slices of 5
    Case("m64_tiles", (randn(161, 8), randn(8, 8576)), route="gemm_vec4_m64"),
    Case("m32_tiles", (randn(65, 8), randn(8, 17024)), route="gemm_vec4_m32"),
    # (positive values: sums of 512 products that cancel would need a looser tolerance)
    Case("m64_split_k", (rand(33, 512), rand(512, 6400)), route="gemm_vec4_m64"),
    Case("m32_split_k", (randn(9, 512), randn(512, 2176)), route="gemm_vec4_m32"),
    # K and N not multiples of 4, few rows: 2 x 66 tiles of 32x32 with scalar loads
    Case("small_tiles_unaligned", (randn(40, 15), randn(15, 2101)),
         route="gemm_small_scalar"),
    Case("empty_k", (randn(3, 0), randn(0, 5))),
    # no columns: no tiles of either size (the split lets must not divide by zero)
    Case("empty_n", (randn(20, 16), randn(16, 0))),
    Case("ieee_specials", (tensor([[INF, 1.0], [NAN, 0.0], [1.0, -INF]]),
                           tensor([[1.0, 0.0, 2.0], [1.0, 3.0, -1.0]]))),
    Case("resize", (randn(24, 16), randn(16, 8)), resize={"self": (17, 16)}),
    # GEMV (M <= 8, K and N multiples of 4): 9 K quads over 8 lanes of K
    Case("gemv_one_row", (randn(1, 36), randn(36, 20)), route="gemv_nn"),
    # two workgroups of 128 columns, the second with one column quad; 7 rows end in
    # half a pair of rows
    Case("gemv_seven_rows", (randn(7, 24), randn(24, 132)), route="gemv_nn"),
    Case("gemv_eight_rows", (randn(8, 20), randn(20, 12)), route="gemv_nn"),
    # K (65 steps of 8) split into 16 slices of 40: the last three are empty
    Case("gemv_split_k", (randn(2, 520), randn(520, 4)), route="gemm_split_sum"),
    Case("gemv_empty_k", (randn(2, 0), randn(0, 8)), route="gemv_nn"),
    Case("gemv_ieee_specials", (tensor([[INF, 1.0, 0.0, 2.0], [NAN, 0.0, 1.0, 1.0],
                                        [1.0, -INF, 0.0, 0.0]]),
                                tensor([[1.0, 0.0, 2.0, -1.0], [1.0, 3.0, -1.0, 0.0],
                                        [0.5, 1.0, INF, 1.0], [2.0, 0.0, 1.0, -INF]])),
         route="gemv_nn"),
    Case("gemv_resize", (randn(6, 16), randn(16, 12)), resize={"self": (3, 16)},
         route="gemv_nn"),
    Case("resize_across_routes", (randn(9, 16), randn(16, 8)), resize={"self": (8, 16)},
         raises="inputs were resized into a different kernel route (got gemv_nn, "
                "expected gemm_vec4_m32)"),
    Case("inner_mismatch", (randn(4, 5), randn(6, 3)),
         raises="mat2 does not match the inner dim (got [6, 3], expected dims[0] == 5)"),
    Case("rejects_int32", (tensor([[1, 2]], dtype="int32"), randn(2, 2)),
         raises="self has an unsupported dtype (got int32, expected float32 or float16)"),
]

BMM_CASES = [
    # attention scores and context of 2 heads, 9 tokens, head dim 8
    Case("attention_scores", (randn(2, 9, 8), randn(2, 8, 9)), route="gemm_scalar"),
    Case("attention_context", (randn(2, 9, 9), randn(2, 9, 8))),
    Case("split_k", (randn(2, 5, 256), randn(2, 256, 6)), route="gemm_split_sum"),
    # 2 batches of 2 x 29 tiles of 128 rows; of 3 x 34 tiles of 64
    Case("vec4_batches", (randn(2, 193, 8), randn(2, 8, 3648)), route="gemm_vec4"),
    Case("m64_batches", (randn(2, 161, 8), randn(2, 8, 4288)), route="gemm_vec4_m64"),
    # 2 batches of 9 tiles of 32 rows, K (64 steps) in 13 slices
    Case("m32_batches_split_k", (randn(2, 9, 512), randn(2, 512, 1088)),
         route="gemm_vec4_m32"),
    # attention over 33 tokens in 36 heads: scores (N = 33) and context (K = 33; its
    # 69-long variant splits K in 2) on 32x32 tiles with scalar loads
    Case("small_scores_unaligned", (randn(36, 33, 8), randn(36, 8, 33)),
         route="gemm_small_scalar"),
    Case("small_context_split_k", (randn(66, 33, 69), randn(66, 69, 12)),
         route="gemm_small_scalar"),
    Case("resize", (randn(4, 8, 12), randn(4, 12, 8)), resize={"self": (4, 5, 12)}),
    # decode attention (GEMV, one query row per head): scores against 36 cached keys
    # (B = K^T as [head dim, keys]) and the context over them
    Case("decode_scores", (randn(4, 1, 16), randn(4, 16, 36)), route="gemv_nn"),
    Case("decode_context", (randn(3, 2, 36), randn(3, 36, 8)), route="gemv_nn"),
    # 2 batches, K (12 steps) split into 3 slices of 32
    Case("gemv_split_k", (randn(2, 1, 96), randn(2, 96, 12)), route="gemm_split_sum"),
    Case("gemv_resize", (randn(4, 2, 16), randn(4, 16, 8)), resize={"self": (4, 1, 16)},
         route="gemv_nn"),
    Case("batch_mismatch", (randn(2, 3, 4), randn(3, 4, 5)),
         raises="mat2 does not match the batch (got [3, 4, 5], expected dims[0] == 2)"),
    Case("inner_mismatch", (randn(2, 3, 4), randn(2, 5, 5)),
         raises="mat2 does not match the inner dim (got [2, 5, 5], expected dims[1] == 4)"),
]

ADDMM_CASES = [
    Case("row_bias", (randn(10), randn(6, 12), randn(12, 10)), route="gemm_scalar"),
    Case("full_bias_alpha_beta", (randn(5, 8), randn(5, 4), randn(4, 8)),
         kwargs={"beta": 0.5, "alpha": -2.0}, route="gemv_nn"),
    Case("column_bias", (randn(5, 1), randn(5, 3), randn(3, 7))),
    Case("scalar_bias", (randn(), randn(3, 3), randn(3, 3))),
    Case("beta_zero_ignores_nan", (tensor([NAN, NAN]), randn(3, 4), randn(4, 2)),
         kwargs={"beta": 0}),
    Case("vec4_tiles", (randn(7296), randn(193, 8), randn(8, 7296)), route="gemm_vec4"),
    Case("m64_tiles", (randn(8576), randn(161, 8), randn(8, 8576)),
         kwargs={"beta": 0.5, "alpha": 2.0}, route="gemm_vec4_m64"),
    Case("m32_column_bias", (randn(65, 1), randn(65, 8), randn(8, 17024)),
         kwargs={"beta": -1.0}, route="gemm_vec4_m32"),
    Case("small_tiles_unaligned", (randn(40, 1), randn(40, 15), randn(15, 2101)),
         kwargs={"beta": -1.0, "alpha": 0.5}, route="gemm_small_scalar"),
    # M = 9 stays tiled: K (32 steps) split into 8 slices
    Case("vec4_split_k", (randn(16), randn(9, 256), randn(256, 16)), route="gemm_split_sum"),
    # scalar loads, a bias per row, K (17 steps) split into 4 slices
    Case("split_k_unaligned", (randn(9, 1), randn(9, 130), randn(130, 30)),
         kwargs={"beta": 0.5, "alpha": 2.0}, route="gemm_split_sum"),
    Case("gemv_row_bias", (randn(20), randn(1, 16), randn(16, 20)), route="gemv_nn"),
    Case("gemv_column_bias", (randn(3, 1), randn(3, 8), randn(8, 8)), route="gemv_nn"),
    # K (9 steps) split into slices of 40 and 32 rows, the epilogue in the sum pass
    Case("gemv_split_k", (randn(3, 12), randn(3, 72), randn(72, 12)),
         kwargs={"beta": 0.5, "alpha": -2.0}, route="gemm_split_sum"),
    Case("gemv_beta_zero_ignores_nan", (tensor([NAN, NAN, NAN, NAN]), randn(2, 8),
                                        randn(8, 4)), kwargs={"beta": 0}, route="gemv_nn"),
    Case("bias_shape", (randn(3), randn(2, 4), randn(4, 5)),
         raises="self does not broadcast to the output (got [3], expected dims "
                "broadcasting to [2, 5])"),
    Case("inner_mismatch", (randn(5), randn(2, 4), randn(3, 5)),
         raises="mat2 does not match the inner dim (got [3, 5], expected dims[0] == 4)"),
]

LINEAR_CASES = [
    # the GEMV cases pinned to gemv_rows_subgroup also run without subgroups, where
    # they take gemv_rows (tests/test_ops.py, executors/cases.py)
    Case("classifier_head", (randn(2, 48), randn(10, 48), randn(10)),
         route="gemv_rows_subgroup"),
    Case("decode_eight_rows", (randn(8, 64), randn(70, 64), None), route="gemv_rows_subgroup"),
    # K / 4 = 50 < 64 lanes (idle lanes), 37 rows: 10 workgroups, the last one partial
    Case("gemv_idle_lanes", (randn(3, 200), randn(37, 200), randn(37)),
         route="gemv_rows_subgroup"),
    # K / 4 = 129: three steps for lane 0; five input rows use the hi accumulator
    Case("gemv_long_k", (randn(5, 516), randn(9, 516), None), route="gemv_rows_subgroup"),
    Case("gemv_specials", (tensor([[1.0, 2.0, -1.0, 0.5], [0.0, 0.0, 0.0, 0.0],
                                   [-0.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0],
                                   [NAN, 1.0, 1.0, 1.0], [INF, 1.0, 0.0, 2.0]]),
                            tensor([[1.0, 0.0, 2.0, 1.0], [0.0, -1.0, 1.0, 3.0],
                                    [2.0, 2.0, -INF, 0.0]]),
                            tensor([0.0, INF, -1.0])),
         route="gemv_rows_subgroup"),
    Case("gemv_resize", (randn(8, 32), randn(12, 32), randn(12)), resize={"input": (3, 32)},
         route="gemv_rows_subgroup"),
    # the weight packed to [K, N] first (linear_pack_weight), then the [K, N] tile
    Case("tokens_no_bias", (randn(1, 193, 8), randn(7296, 8)), route="gemm_vec4"),
    Case("packed_weight", (randn(12, 20), randn(36, 20), randn(36)),
         route="linear_pack_weight"),
    # N % 4 != 0: no pack, the scalar tile reads [N, K] in place
    Case("unaligned_n", (randn(2, 7, 24), randn(13, 24), randn(13)), route="gemm_scalar"),
    Case("vector", (randn(17), randn(5, 17), randn(5)), route="gemm_scalar"),
    Case("rank4", (randn(2, 3, 4, 8), randn(6, 8), randn(6))),
    Case("long_k_split", (randn(9, 1031), randn(4, 1031), randn(4)), route="gemm_split_sum"),
    # the packed weight on 64-row tiles (161 rows, 67 column tiles); 32-row tiles with
    # K in 13 slices
    Case("m64_tiles", (randn(7, 23, 8), randn(8576, 8), randn(8576)),
         route="gemm_vec4_m64"),
    Case("m32_split_k", (randn(9, 512), randn(2176, 512), None), route="gemm_vec4_m32"),
    # N % 4 != 0: no pack, the 32x32 tiles read [N, K] in place with scalar loads
    Case("small_tiles_unaligned", (randn(40, 16), randn(2101, 16), randn(2101)),
         route="gemm_small_scalar"),
    Case("tile_edges", (randn(131, 36), randn(129, 36), randn(129))),
    Case("ieee_specials", (tensor([[INF, 0.0, 1.0, 2.0], [NAN, 1.0, 1.0, 1.0]]),
                           tensor([[1.0, 1.0, 0.0, 0.0], [0.0, -1.0, 2.0, 1.0]]),
                           tensor([0.0, -INF]))),
    Case("resize", (randn(4, 9, 16), randn(8, 16), randn(8)), resize={"input": (4, 5, 16)}),
    Case("weight_width", (randn(2, 8), randn(4, 6), None),
         raises="weight does not match the input's last dim (got [4, 6], expected [N, 8])"),
    Case("bias_length", (randn(2, 8), randn(4, 8), randn(3)),
         raises="bias does not hold one value per output feature (got [3], expected [4])"),
    Case("rejects_int32", (tensor([[1, 2]], dtype="int32"), randn(3, 2), None),
         raises="input has an unsupported dtype (got int32, expected float32 or float16)"),
    Case("resize_across_routes", (randn(9, 16), randn(8, 16), None), resize={"input": (8, 16)},
         raises="inputs were resized into a different set of dispatches (got true, "
                "expected false)"),
]
