"""The convolutions' float16 cases (not a spec file: the loader skips `_` files): one per
route on a shape that takes it (its masked twin runs the packed route on a device without
shader-f16), and a sum past 65504. Accumulation is float32, each output rounded to
float16 once (docs/numerics.md)."""

from codegen.graph.inputs import full, randn


def h(*shape: int):
    return randn(*shape, dtype="float16")


def half_positive(conv_args) -> list[tuple]:
    """(name, conv args, route) of each float16 case; `conv_args` builds the arguments."""
    return [
        ("f16_pack_weights", conv_args(h(1, 8, 9, 9), h(16, 8, 3, 3), h(16), padding=(1, 1)),
         "conv2d_pack_weights_f16"),
        ("f16_stem", conv_args(h(1, 3, 16, 16), h(8, 3, 3, 3), h(8), stride=(2, 2),
                               padding=(1, 1)), "conv2d_stem_gemm_f16"),
        ("f16_gemm", conv_args(h(1, 16, 8, 8), h(32, 16, 3, 3), h(32), padding=(1, 1)),
         "conv2d_gemm_f16"),
        ("f16_gemm128", conv_args(h(1, 16, 8, 8), h(128, 16, 3, 3), None, padding=(1, 1)),
         "conv2d_gemm128_f16"),
        # K = 768 in 48 steps, split in 6 slices
        ("f16_patch_embed_split_k", conv_args(h(1, 3, 32, 48), h(8, 3, 16, 16), h(8),
                                              stride=(16, 16)), "conv2d_split_sum_f16"),
        ("f16_transposed_gemm", conv_args(h(1, 8, 5, 5), h(8, 4, 4, 4), h(4), stride=(2, 2),
                                          padding=(1, 1), transposed=True),
         "conv_transpose2d_gemm_f16"),
        ("f16_transposed_grouped", conv_args(h(1, 4, 5, 5), h(4, 2, 3, 3), h(4),
                                             stride=(2, 2), transposed=True, groups=2),
         "conv_transpose2d_f16"),
        ("f16_grouped_vec4", conv_args(h(1, 8, 6, 6), h(8, 4, 3, 3), h(8), groups=2),
         "conv2d_vec4_f16"),
        ("f16_depthwise", conv_args(h(1, 4, 6, 6), h(4, 1, 3, 3), h(4), padding=(1, 1),
                                    groups=4), "conv2d_f16"),
        # 4 * 300 * 300 = 360000 overflows to inf
        ("f16_overflow", conv_args(full((1, 1, 2, 2), 300.0, dtype="float16"),
                                   full((1, 1, 2, 2), 300.0, dtype="float16")), ""),
    ]
