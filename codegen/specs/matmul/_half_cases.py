"""The GEMM family's float16 cases (not a spec file: the loader skips `_` files): each
route's float16 twin on shapes that take it (its masked twin runs the packed route on a
device without shader-f16), results past 65504 and subnormal products, and the
rejection of mixed float dtypes. Accumulation is float32; each output is rounded to
float16 once (docs/numerics.md)."""

from codegen.language import Case
from codegen.graph.inputs import randn, tensor

INF = float("inf")


def h(*shape: int):
    return randn(*shape, dtype="float16")


# [[300, 300], [2^-12, 1]] @ [[300, 1], [300, 1]]: 180000 overflows to inf; 2^-12 * 2^-12
# is a subnormal half (2^-24); an infinity in A gives inf and NaN (inf * 0)
SPECIAL_A = tensor([[300.0, 300.0], [2.0 ** -12, 0.0], [INF, 1.0]], dtype="float16")
SPECIAL_B = tensor([[300.0, 2.0 ** -12], [300.0, 1.0]], dtype="float16")


def mm_cases() -> list[Case]:
    return [
        # the three tiles (128, 64 and 32 rows) on shapes the estimate gives each
        Case("f16_vec4_tiles", (h(193, 8), h(8, 7296)), route="gemm_vec4_f16"),
        Case("f16_m64_tiles", (h(161, 8), h(8, 8576)), route="gemm_vec4_m64_f16"),
        Case("f16_m32_tiles", (h(130, 64), h(64, 136)), route="gemm_vec4_m32_f16"),
        Case("f16_odd_shapes", (h(37, 29), h(29, 41)), route="gemm_scalar_f16"),
        Case("f16_split_k", (h(9, 520), h(520, 12)), route="gemm_split_sum_f16"),
        Case("f16_small_tiles_unaligned", (h(40, 15), h(15, 2101)),
             route="gemm_small_scalar_f16"),
        Case("f16_gemv", (h(7, 24), h(24, 132)), route="gemv_nn_f16"),
        Case("f16_specials", (SPECIAL_A, SPECIAL_B)),
        Case("rejects_mixed_floats", (randn(2, 3), h(3, 2)),
             raises="self does not share its dtype with mat2 (got float32, expected the dtype "
                    "of mat2)"),
    ]


def bmm_cases() -> list[Case]:
    return [
        Case("f16_vec4_batches", (h(2, 193, 8), h(2, 8, 3648)), route="gemm_vec4_f16"),
        Case("f16_m64_batches", (h(2, 161, 8), h(2, 8, 4288)), route="gemm_vec4_m64_f16"),
        Case("f16_m32_batches", (h(3, 130, 16), h(3, 16, 132)), route="gemm_vec4_m32_f16"),
        Case("f16_attention_scores", (h(2, 9, 8), h(2, 8, 9)), route="gemm_scalar_f16"),
        Case("f16_split_k", (h(2, 5, 256), h(2, 256, 6)), route="gemm_split_sum_f16"),
        Case("f16_small_unaligned", (h(36, 33, 8), h(36, 8, 33)),
             route="gemm_small_scalar_f16"),
        Case("f16_decode_scores", (h(4, 1, 16), h(4, 16, 36)), route="gemv_nn_f16"),
        Case("rejects_mixed_floats", (h(2, 3, 4), randn(2, 4, 5)),
             raises="self does not share its dtype with mat2 (got float16, expected the dtype "
                    "of mat2)"),
    ]


def addmm_cases() -> list[Case]:
    return [
        Case("f16_row_bias", (h(10), h(6, 12), h(12, 10)), route="gemm_scalar_f16"),
        Case("f16_vec4_tiles", (h(7296), h(193, 8), h(8, 7296)), route="gemm_vec4_f16"),
        Case("f16_m64_tiles", (h(8576), h(161, 8), h(8, 8576)), route="gemm_vec4_m64_f16"),
        Case("f16_m32_tiles", (h(16), h(20, 8), h(8, 16)), kwargs={"beta": 0.5, "alpha": 2.0},
             route="gemm_vec4_m32_f16"),
        Case("f16_small_tiles_unaligned", (h(40, 1), h(40, 15), h(15, 2101)),
             route="gemm_small_scalar_f16"),
        Case("f16_split_k", (h(16), h(9, 256), h(256, 16)), route="gemm_split_sum_f16"),
        Case("f16_gemv", (h(5, 8), h(5, 4), h(4, 8)), route="gemv_nn_f16"),
        Case("rejects_mixed_floats", (randn(3), h(2, 4), h(4, 3)),
             raises="mat1 does not share its dtype with mat2 and self (got float16, expected "
                    "the dtype of mat2 and self)"),
    ]


def linear_cases() -> list[Case]:
    return [
        # gemv_rows_subgroup_f16's masked twins: the packed subgroup route (no shader-f16),
        # gemv_rows_f16 (no subgroups) and gemv_rows_f16_packed (neither)
        Case("f16_classifier_head", (h(2, 48), h(10, 48), h(10)),
             route="gemv_rows_subgroup_f16"),
        Case("f16_tokens_no_bias", (h(1, 193, 8), h(7296, 8)), route="gemm_vec4_f16"),
        Case("f16_m64_tokens", (h(7, 23, 8), h(8576, 8), h(8576)), route="gemm_vec4_m64_f16"),
        Case("f16_m32_tokens", (h(2, 7, 24), h(16, 24)), route="gemm_vec4_m32_f16"),
        Case("f16_packed_weight", (h(12, 20), h(36, 20), h(36)),
             route="linear_pack_weight_f16"),
        Case("f16_unaligned_n", (h(2, 7, 24), h(13, 24), h(13)), route="gemm_scalar_f16"),
        Case("f16_long_k_split", (h(9, 1031), h(4, 1031), h(4)), route="gemm_split_sum_f16"),
        Case("f16_small_tiles_unaligned", (h(40, 16), h(2101, 16), h(2101)),
             route="gemm_small_scalar_f16"),
        # the weight [N, K] is SPECIAL_B transposed
        Case("f16_specials", (SPECIAL_A, tensor([[300.0, 300.0], [2.0 ** -12, 1.0]],
                                                dtype="float16"), None)),
        Case("rejects_mixed_floats", (h(2, 8), randn(4, 8), None),
             raises="input does not share its dtype with weight and bias (got float16, "
                    "expected the dtype of weight and bias)"),
    ]
