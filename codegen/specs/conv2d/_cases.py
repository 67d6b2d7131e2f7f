"""The convolutions' cases (not a spec file: the loader skips `_` files): every route with
tile edges on the GEMMs, the rank-3 (conv1d) routes, the guards' negative cases, and
conv_with_clamp's clamped twins."""

from codegen.language import Case
from codegen.graph.inputs import randn, tensor
from codegen.specs.conv2d._half_cases import half_positive

def conv_args(x, w, b=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), transposed=False,
              output_padding=(0, 0), groups=1) -> tuple:
    return (x, w, b, list(stride), list(padding), list(dilation), transposed,
            list(output_padding), groups)


def conv1d_args(x, w, b=None, stride=1, padding=0, dilation=1, transposed=False,
                output_padding=0, groups=1) -> tuple:
    """A rank-3 convolution's arguments as torch's conv1d passes them: one value a list."""
    return (x, w, b, [stride], [padding], [dilation], transposed, [output_padding], groups)


NAN, INF = float("nan"), float("inf")


def with_specials(c: int, h: int, w: int) -> list:
    """A [1, c, h, w] input of small integers with NaN, +-inf and -0.0 at a few places."""
    x = [[[[float((ci * 7 + i * 3 + j * 5) % 9 - 4) for j in range(w)] for i in range(h)]
          for ci in range(c)]]
    x[0][0][1][1], x[0][1][h - 2][w - 1], x[0][c - 1][0][w // 2] = NAN, INF, -INF
    x[0][0][h - 1][0] = -0.0
    return x


IEEE_INPUT = [[[[1.0, NAN, -0.5], [0.25, 2.0, -1.5], [INF, 0.75, -2.0]],
               [[-1.0, 0.5, 1.5], [-INF, 0.0, 1.25], [0.5, -0.75, 1.0]]]]

# (name, conv args, route); every route is covered, with tile edges on the GEMM
POSITIVE = [
    # conv2d_stem_gemm (IC < 16): K = KH * KW * IC in steps of 16 across taps
    ("gemm_batched", conv_args(randn(2, 8, 9, 9), randn(16, 8, 3, 3), randn(16), padding=(1, 1)),
     "conv2d_stem_gemm"),
    # 64 pixels, K = 147 in 10 steps, the last with 3 of 16 k
    ("rgb_stem", conv_args(randn(1, 3, 32, 32), randn(16, 3, 7, 7), randn(16), stride=(4, 4),
                           padding=(3, 3)), "conv2d_stem_gemm"),
    # the ResNet stem geometry (7x7 s2 p3): 144 pixels in 3 tiles, the last partial
    ("stem_7x7_s2", conv_args(randn(1, 3, 23, 23), randn(16, 3, 7, 7), randn(16),
                              stride=(2, 2), padding=(3, 3)), "conv2d_stem_gemm"),
    # a ViT patch embed (16x16 s16, no padding: the unpadded kernel variant), K = 768 in
    # 48 steps split in 6 slices
    ("patch_embed_16", conv_args(randn(1, 3, 32, 48), randn(8, 3, 16, 16), randn(8),
                                 stride=(16, 16)), "conv2d_split_sum"),
    # patches that do not tile the image (13 = 3 * 4 + 1 rows), two images in one tile
    ("patch_embed_remainder", conv_args(randn(2, 3, 13, 17), randn(10, 3, 4, 4), randn(10),
                                        stride=(4, 4)), "conv2d_stem_gemm"),
    # K = 245 in 16 steps split in 2 slices, the last step partial (5 of 16 k)
    ("stem_split_k", conv_args(randn(1, 5, 9, 9), randn(6, 5, 7, 7), randn(6), stride=(2, 2),
                               padding=(3, 3)), "conv2d_split_sum"),
    # pixel tiles across images; asymmetric stride, padding and dilation
    ("stem_batched_dilated", conv_args(randn(2, 5, 11, 9), randn(7, 5, 3, 3), None,
                                       stride=(2, 1), padding=(1, 2), dilation=(2, 1)),
     "conv2d_stem_gemm"),
    # K = 1: one step, its kh digit moves by 16
    ("stem_one_channel_1x1", conv_args(randn(1, 1, 9, 9), randn(6, 1, 1, 1), randn(6)),
     "conv2d_stem_gemm"),
    # the widest stem (15 channels, K = 135)
    ("stem_fifteen_channels", conv_args(randn(1, 15, 6, 7), randn(9, 15, 3, 3), randn(9),
                                        padding=(1, 1)), "conv2d_stem_gemm"),
    # NaN and +-inf spread to the outputs whose windows hold them; padding stays 0
    ("stem_ieee_specials", conv_args(tensor(with_specials(3, 7, 6)), randn(4, 3, 3, 3),
                                     randn(4), padding=(1, 1)), "conv2d_stem_gemm"),
    ("strided_downsample", conv_args(randn(1, 8, 12, 12), randn(12, 8, 2, 2), randn(12),
                                     stride=(2, 2)), "conv2d_stem_gemm"),
    ("dilated_no_bias", conv_args(randn(1, 4, 11, 10), randn(6, 4, 3, 3), padding=(2, 1),
                                  dilation=(2, 3)), "conv2d_stem_gemm"),
    # the GEMM route runs after the weight pack (named here so a case must take it)
    ("pointwise", conv_args(randn(2, 8, 5, 5), randn(8, 8, 1, 1), randn(8)),
     "conv2d_pack_weights"),
    ("gemm_multi_tile", conv_args(randn(1, 5, 10, 9), randn(70, 5, 3, 3), randn(70)),
     "conv2d_stem_gemm"),
    # conv2d_gemm (IC >= 16): K steps of one tap x 16 input channels
    # partial tiles in pixels, channels (OC % 4 != 0) and input-channel steps (20 = 16 + 4)
    ("gemm_partial_tiles", conv_args(randn(2, 20, 9, 8), randn(30, 20, 3, 3), randn(30),
                                     padding=(1, 1)), "conv2d_gemm"),
    ("gemm_strided_dilated", conv_args(randn(1, 16, 11, 13), randn(8, 16, 3, 2),
                                       stride=(2, 1), padding=(2, 0), dilation=(2, 3)),
     "conv2d_gemm"),
    # K split in 4 slices of 9 steps (4 steps per tap, 56 = 3 * 16 + 8): slices start
    # inside a tap; the slices' sums are added by the split_sum pass
    ("gemm_split_k", conv_args(randn(1, 56, 7, 6), randn(40, 56, 3, 3), randn(40),
                               padding=(1, 1)), "conv2d_split_sum"),
    ("gemm_pointwise", conv_args(randn(1, 32, 7, 9), randn(40, 32, 1, 1), randn(40)),
     "conv2d_gemm"),
    # 1 x 3 channel tiles (130 = 2 * 64 + 2) of a 7x7 image (49 pixels: too few for
    # conv2d_gemm128); K split in 4 slices (9 taps x 4 steps)
    ("gemm_channel_tiles", conv_args(randn(1, 64, 7, 7), randn(130, 64, 3, 3), randn(130),
                                     padding=(1, 1)), "conv2d_gemm"),
    # conv2d_gemm128 (IC >= 16, OC >= 128, B * OH * OW >= 64): the second channel tile and
    # the pixel tile partial; K = 144 (vec4 weights) in 18 steps, not split
    ("gemm128_partial_tile", conv_args(randn(1, 16, 9, 8), randn(130, 16, 3, 3), randn(130),
                                       padding=(1, 1)), "conv2d_gemm128"),
    # K = 17 (scalar weights, the last quad 1 of 4 k), 1x1, no bias
    ("gemm128_k17_pointwise", conv_args(randn(1, 17, 8, 9), randn(130, 17, 1, 1)),
     "conv2d_gemm128"),
    # K = 162 (3x3, IC 18: scalar weights) with a row of K_STEP = 8 crossing taps and channels
    ("gemm128_k162", conv_args(randn(1, 18, 8, 8), randn(128, 18, 3, 3), randn(128),
                               padding=(1, 1)), "conv2d_gemm128"),
    # asymmetric stride, padding and dilation; 99 pixels, quads across output rows
    ("gemm128_strided_dilated", conv_args(randn(1, 16, 17, 14), randn(128, 16, 3, 2),
                                          randn(128), stride=(2, 1), padding=(2, 0),
                                          dilation=(2, 3)), "conv2d_gemm128"),
    # two images of 63 pixels in one tile (the quad 60..63 straddles them); K = 333 (scalar
    # weights) in 42 steps split in 2 slices of 168 (the slice boundary inside a tap of
    # channel 18), the sums added by conv2d_split_sum
    ("gemm128_batched_split_k", conv_args(randn(2, 37, 7, 9), randn(128, 37, 3, 3), randn(128),
                                          padding=(1, 1)), "conv2d_gemm128"),
    # the multi-workgroup case: 2 x 2 tiles, partial in pixels (144) and channels (130); K =
    # 1152 (vec4) in 144 steps split in 9 slices
    ("gemm128_tiles_split_k", conv_args(randn(1, 128, 12, 12), randn(130, 128, 3, 3),
                                        randn(130), padding=(1, 1)), "conv2d_gemm128"),
    # NaN and +-inf spread to the outputs whose windows hold them; padding stays 0
    ("gemm128_ieee_specials", conv_args(tensor(with_specials(16, 8, 8)), randn(128, 16, 3, 3),
                                        randn(128), padding=(1, 1)), "conv2d_gemm128"),
    ("grouped_vec4", conv_args(randn(1, 8, 7, 7), randn(6, 4, 3, 3), randn(6), padding=(1, 1),
                               groups=2), "conv2d_vec4"),
    ("grouped_vec4_strided", conv_args(randn(2, 16, 9, 8), randn(8, 8, 3, 3), stride=(2, 1),
                                       padding=(1, 0), groups=2), "conv2d_vec4"),
    ("rgb_stem_grouped", conv_args(randn(1, 6, 12, 12), randn(8, 3, 3, 3), randn(8),
                                   stride=(2, 2), padding=(1, 1), groups=2), "conv2d"),
    ("depthwise", conv_args(randn(2, 8, 9, 9), randn(8, 1, 3, 3), randn(8), padding=(1, 1),
                            groups=8), "conv2d"),
    ("transposed_output_padding", conv_args(randn(1, 4, 5, 5), randn(4, 3, 3, 3), randn(3),
                                            stride=(2, 2), padding=(1, 1), transposed=True,
                                            output_padding=(1, 1)), "conv_transpose2d_gemm"),
    # the bench's 4x4 s2 geometry: two pixel tiles per phase (the second partial), K steps
    # of 16 + 4 channels
    ("transposed_gemm_4x4_s2", conv_args(randn(2, 20, 7, 9), randn(20, 6, 4, 4), randn(6),
                                         stride=(2, 2), padding=(1, 1), transposed=True),
     "conv_transpose2d_gemm"),
    # two channel tiles (70 = 64 + 6); an odd OW gives phases of unequal size, 1 to 4 taps
    ("transposed_gemm_channel_tiles", conv_args(randn(1, 8, 3, 4), randn(8, 70, 3, 3),
                                                randn(70), stride=(2, 2), padding=(1, 1),
                                                transposed=True, output_padding=(1, 0)),
     "conv_transpose2d_gemm"),
    # stride 1: one phase holding every tap (a direct conv with the kernel flipped)
    ("transposed_stride1", conv_args(randn(1, 5, 6, 5), randn(5, 7, 3, 2), randn(7),
                                     padding=(0, 1), transposed=True),
     "conv_transpose2d_gemm"),
    # a kernel smaller than the stride: the phases no tap reaches hold the bias alone
    ("transposed_stride_over_kernel", conv_args(randn(1, 3, 4, 5), randn(3, 5, 2, 1), randn(5),
                                                stride=(3, 2), transposed=True,
                                                output_padding=(2, 1)),
     "conv_transpose2d_gemm"),
    # six phases (stride 2 x 3), padding past a tap's reach, no bias
    ("transposed_gemm_rect", conv_args(randn(1, 6, 6, 5), randn(6, 9, 4, 5), stride=(2, 3),
                                       padding=(2, 3), transposed=True, output_padding=(1, 2)),
     "conv_transpose2d_gemm"),
    # NaN and +-inf inputs reach exactly the outputs whose taps read them, as in torch
    ("transposed_ieee_specials", conv_args(tensor(IEEE_INPUT), randn(2, 3, 3, 3), randn(3),
                                           stride=(2, 2), padding=(1, 1), transposed=True),
     "conv_transpose2d_gemm"),
    # more phases than MAX_PHASES (33 x 32 strides) stay on the gather kernel
    ("transposed_many_phases", conv_args(randn(1, 3, 2, 1), randn(3, 2, 2, 3), randn(2),
                                         stride=(33, 32), transposed=True),
     "conv_transpose2d"),
    # dilation > 1 stays on the gather kernel
    ("transposed_dilated", conv_args(randn(1, 4, 5, 4), randn(4, 3, 3, 3), randn(3),
                                     stride=(2, 2), padding=(1, 1), dilation=(2, 1),
                                     transposed=True), "conv_transpose2d"),
    ("transposed_grouped_dilated", conv_args(randn(2, 6, 4, 5), randn(6, 2, 3, 2),
                                             stride=(2, 3), padding=(1, 0), dilation=(2, 1),
                                             transposed=True, output_padding=(1, 0), groups=3),
     "conv_transpose2d"),
]

# rank-3 convolutions (conv1d, conv_transpose1d): the rank-4 routes with H = 1
POSITIVE_1D = [
    # Wav2Vec2's first feature conv (one channel, kernel 10, stride 5, no bias): K = 10
    ("conv1d_wav2vec2_stem", conv1d_args(randn(2, 1, 53), randn(8, 1, 10), stride=5),
     "conv2d_stem_gemm"),
    # dilated and padded, IC < 16
    ("conv1d_dilated", conv1d_args(randn(1, 4, 20), randn(6, 4, 3), randn(6), padding=2,
                                   dilation=2), "conv2d_stem_gemm"),
    # Whisper's second conv (k3 s2 p1), IC >= 16; pixel tiles across the batch
    ("conv1d_gemm_strided", conv1d_args(randn(2, 16, 21), randn(24, 16, 3), randn(24), stride=2,
                                        padding=1), "conv2d_gemm"),
    # K = 5 taps x 4 steps of 16 channels, split in 2 slices
    ("conv1d_gemm_split_k", conv1d_args(randn(1, 64, 12), randn(32, 64, 5), randn(32),
                                        padding=2), "conv2d_split_sum"),
    # 128 output channels x 70 positions: conv2d_gemm128, K = 48 (vec4 weights)
    ("conv1d_gemm128", conv1d_args(randn(1, 16, 70), randn(130, 16, 3), randn(130), padding=1),
     "conv2d_gemm128"),
    # Wav2Vec2's positional conv: grouped (4 channels a group), even kernel, padding K / 2
    ("conv1d_grouped_even_kernel", conv1d_args(randn(1, 16, 9), randn(16, 4, 8), randn(16),
                                               padding=4, groups=4), "conv2d_vec4"),
    ("conv1d_depthwise", conv1d_args(randn(2, 6, 11), randn(6, 1, 3), randn(6), padding=1,
                                     groups=6), "conv2d"),
    # conv_transpose1d: stride-2 phases, output padding
    ("conv_transpose1d", conv1d_args(randn(1, 4, 7), randn(4, 3, 4), randn(3), stride=2,
                                     padding=1, transposed=True, output_padding=1),
     "conv_transpose2d_gemm"),
    ("conv_transpose1d_grouped_dilated", conv1d_args(randn(1, 6, 5), randn(6, 2, 3), stride=2,
                                                     dilation=2, transposed=True,
                                                     output_padding=1, groups=3),
     "conv_transpose2d"),
]
POSITIVE += POSITIVE_1D

NEGATIVE = [
    ("mixed_floats", conv_args(randn(1, 4, 6, 6, dtype="float16"), randn(4, 4, 3, 3)),
     "input does not share its dtype with weight and bias (got float16, expected the dtype "
     "of weight and bias)"),
    ("zero_stride", conv_args(randn(1, 4, 6, 6), randn(4, 4, 3, 3), stride=(0, 1)),
     "stride is not positive (got [0, 1], expected strides >= 1)"),
    ("zero_dilation", conv_args(randn(1, 4, 6, 6), randn(4, 4, 3, 3), dilation=(1, 0)),
     "dilation is not positive (got [1, 0], expected dilations >= 1)"),
    ("negative_padding", conv_args(randn(1, 4, 6, 6), randn(4, 4, 3, 3), padding=(-1, 0)),
     "padding is negative (got [-1, 0], expected paddings >= 0)"),
    ("empty_kernel", conv_args(randn(1, 4, 6, 6), randn(4, 4, 0, 3)),
     "weight has an empty kernel (got [4, 4, 0, 3], expected KH and KW >= 1)"),
    ("groups_do_not_divide", conv_args(randn(1, 6, 6, 6), randn(4, 2, 3, 3), groups=3),
     "groups does not divide the channels (got 3, expected a divisor of IC=6 and OC=4)"),
    ("weight_channels", conv_args(randn(1, 4, 6, 6), randn(4, 3, 3, 3)),
     "weight does not match the input channels per group (got [4, 3, 3, 3], expected "
     "dims[1] == 4)"),
    ("transposed_weight_channels", conv_args(randn(1, 4, 6, 6), randn(5, 3, 3, 3),
                                             transposed=True),
     "weight does not match the input channels (transposed) (got [5, 3, 3, 3], expected "
     "dims[0] == 4)"),
    ("output_padding_direct", conv_args(randn(1, 4, 6, 6), randn(4, 4, 3, 3),
                                        output_padding=(1, 0)),
     "output_padding is only valid for a transposed conv (got [1, 0], expected [0, 0])"),
    ("output_padding_too_large", conv_args(randn(1, 4, 6, 6), randn(4, 3, 3, 3), stride=(2, 2),
                                           transposed=True, output_padding=(2, 0)),
     "output_padding is not smaller than stride or dilation (got [2, 0], expected values below "
     "[2, 2] or [1, 1])"),
    ("bias_size", conv_args(randn(1, 4, 6, 6), randn(4, 4, 3, 3), randn(3)),
     "bias does not hold one value per output channel (got [3], expected 4 values)"),
    ("input_smaller_than_kernel", conv_args(randn(1, 4, 2, 6), randn(4, 4, 3, 3)),
     "input is smaller than the kernel (got [1, 4, 2, 6], expected an output of at least 1x1)"),
    ("conv3d_input", conv_args(randn(1, 2, 3, 4, 4), randn(2, 2, 1, 1, 1), stride=(1, 1, 1),
                               padding=(0, 0, 0), dilation=(1, 1, 1), output_padding=(0, 0, 0)),
     "input has the wrong rank (got 5, expected 3..4)"),
    ("stride_three_values", conv_args(randn(1, 4, 6, 6), randn(4, 4, 3, 3), stride=(1, 1, 1)),
     "stride does not hold one value per spatial dim (got [1, 1, 1], expected one or two "
     "values)"),
    ("conv1d_weight_rank", conv1d_args(randn(1, 4, 10), randn(4, 4, 1, 3)),
     "weight does not have the input's rank (got 4, expected 3)"),
    ("conv1d_stride_two_values", conv_args(randn(1, 4, 10), randn(4, 4, 3), stride=(1, 2),
                                           padding=(0,), dilation=(1,), output_padding=(0,)),
     "stride does not hold one value per spatial dim (got [1, 2], expected one value)"),
    ("conv1d_padding_two_values", conv_args(randn(1, 4, 10), randn(4, 4, 3), stride=(1,),
                                            padding=(0, 1), dilation=(1,), output_padding=(0,)),
     "padding does not hold one value per spatial dim (got [0, 1], expected one value)"),
    ("conv1d_dilation_two_values", conv_args(randn(1, 4, 10), randn(4, 4, 3), stride=(1,),
                                             padding=(0,), dilation=(1, 1), output_padding=(0,)),
     "dilation does not hold one value per spatial dim (got [1, 1], expected one value)"),
    ("output_padding_three_values", conv_args(randn(1, 4, 6, 6), randn(4, 4, 3, 3),
                                              output_padding=(0, 0, 0)),
     "output_padding does not hold one value per spatial dim (got [0, 0, 0], expected one or "
     "two values)"),
    ("conv1d_output_padding_direct", conv1d_args(randn(1, 4, 10), randn(4, 4, 3),
                                                 output_padding=1),
     "output_padding is only valid for a transposed conv (got [1], expected [0])"),
    ("conv1d_weight_channels", conv1d_args(randn(1, 4, 10), randn(4, 2, 3)),
     "weight does not match the input channels per group (got [4, 2, 3], expected "
     "dims[1] == 4)"),
    ("conv1d_input_smaller_than_kernel", conv1d_args(randn(1, 4, 2), randn(4, 4, 3)),
     "input is smaller than the kernel (got [1, 4, 2], expected an output of at least 1)"),
]

STATIC = ("rejects_resize", conv_args(randn(1, 4, 8, 8), randn(4, 4, 3, 3)),
          "input was resized, but this op supports static shapes only")


# Cases whose outputs are float32 sums of K = IC * KH * KW products of randn (576 and 1152
# terms, accumulated in another order than torch's float64): where the terms cancel, the
# rounding error reaches 2.5e-5 absolute (the default tolerance is 1e-5), so these allow
# 1e-4; a kernel wrong in the fourth digit is still off by far more.
LONG_SUMS = {"gemm_channel_tiles": 1e-4, "gemm128_tiles_split_k": 1e-4}


def cases(extra: tuple = ()) -> list[Case]:
    """The shared cases, with `extra` arguments appended (conv_with_clamp's clamp)."""
    out = [Case(n, args + extra, route=route, atol=LONG_SUMS.get(n))
           for n, args, route in POSITIVE + half_positive(conv_args)]
    out += [Case(n, args + extra, raises=msg) for n, args, msg in NEGATIVE]
    n, args, msg = STATIC
    out.append(Case(n, args + extra, resize={"input": (1, 4, 6, 6)}, raises=msg))
    return out


def clamp_cases() -> list[Case]:
    """conv_with_clamp: each route clamped, plus the shared negative cases."""
    pick = {n: (args, route) for n, args, route in POSITIVE}
    clamped = [
        ("relu_gemm", "gemm_batched", (0.0, None)),
        ("relu_pointwise", "pointwise", (0.0, None)),
        ("relu6_split_k", "gemm_split_k", (0.0, 6.0)),
        ("relu_gemm_partial_tiles", "gemm_partial_tiles", (0.0, None)),
        ("clamp_gemm128", "gemm128_partial_tile", (-1.0, 1.0)),
        ("relu6_gemm128_split_k", "gemm128_batched_split_k", (0.0, 6.0)),
        ("relu_stem", "stem_7x7_s2", (0.0, None)),
        ("clamp_patch_embed_split_k", "patch_embed_16", (-1.0, 1.0)),
        ("clamp_vec4", "grouped_vec4", (-0.5, 0.5)),
        ("max_only_scalar", "depthwise", (None, 1.0)),
        ("relu6_transposed", "transposed_output_padding", (0, 6)),
        ("relu6_transposed_gemm", "transposed_gemm_channel_tiles", (0.0, 6.0)),
        ("relu_transposed_stride1", "transposed_stride1", (0.0, None)),
        ("clamp_transposed_gather", "transposed_grouped_dilated", (-1.0, 1.0)),
        ("relu_conv1d_gemm", "conv1d_gemm_strided", (0.0, None)),
        ("relu6_conv1d_depthwise", "conv1d_depthwise", (0.0, 6.0)),
    ]
    out = [Case(n, pick[src][0] + lim, route=pick[src][1]) for n, src, lim in clamped]
    out += [Case(f"relu6_{n}", args + (0.0, 6.0), route=route)
            for n, args, route in half_positive(conv_args)]
    shared = cases((None, None))
    return out + [c for c in shared if c.raises]  # torch's reference needs a min or a max

