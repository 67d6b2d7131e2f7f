"""2-D and 1-D convolution, direct and transposed, and its fused-clamp twin
et_vk.conv_with_clamp.

A rank-3 convolution (conv1d, conv_transpose1d: input [B, C, L], weight [OC, IC / groups, K]
or, transposed, [IC, OC / groups, K]) is the rank-4 one with H = 1: input [B, C, 1, L],
weight [..., 1, K], stride (1, s), padding (0, p), dilation (1, d), output padding (0, op),
output [B, OC, OL]. The rank-3 tensors hold the same bytes as those rank-4 views, so every
route below serves both and only the lets differ: IH = KH = 1 and the H values of the int
lists (sH, pH, dH, opH) the identity. Each int list holds one value per spatial dim or one
for all (torch's rule); the weight must have the input's rank. Rank 5 (conv3d) is refused.

One Params struct serves both targets. A direct conv with groups == 1 is an implicit-im2col
GEMM in up to three passes: conv2d_pack_weights (weights to tap-major vec4s: a
[KH * KW * IC, OC] matrix), the GEMM (64x64 tiles, K split across workgroups when there
are few tiles) and conv2d_split_sum (adds the K slices). The GEMM is conv2d_stem_gemm
with fewer than STEM_MAX_IC input channels (RGB stems, patch embeds: K is the flattened
KH * KW * IC); with more channels, at least 128 output channels and 64 pixels,
conv2d_gemm128: the matmul spec's 128x128 tile (gemm_tile.wgsl) on the weights as they
are ([OC, IC * KH * KW], K steps of 8, split into conv2d_split_sum's partials like the
others); else conv2d_gemm (K steps of one tap x 16 input channels), which `opgen bench
--force conv2d_gemm` still times where conv2d_gemm128 is chosen (the pack pass runs for
every GEMM route so that either can be forced). A transposed
conv with groups == 1 and dilation 1 is the same GEMM per output phase (stride sH x sW
gives sH * sW phases, each a dense direct conv over the taps that reach it):
conv2d_pack_weights (TRANSPOSED), then conv_transpose2d_gemm with the phase as workgroup z.
Other transposed convs run the gather kernel conv_transpose2d (weight [IC, OC / groups,
KH, KW]), the fallback route of the same dispatch, so `opgen bench --force
conv_transpose2d` still times it. Other direct convs are one pass of the "direct"
dispatch: a vec4 kernel (input channels per group % 4 == 0) or a scalar kernel (e.g.
depthwise). The clamp of conv_with_clamp is applied in every kernel's epilogue (has_min /
has_max); aten.convolution leaves both off.
"""

from codegen.language import (F16, F32, Bind, Bool, Case, Dispatch, Elementwise, Guard, Int,
                              IntList, Kernel, Op, Output, Override, Params, Route, Scalar, Scratch,
                              Tensor, Tiles, f32, half_routes, same_dtype, u32)
from codegen.graph.inputs import randn, tensor
from codegen.specs.conv2d._half_cases import half_positive

PACK = Kernel("conv2d_pack_weights", overrides={"TRANSPOSED": Override("bool", False)})
# the 64x64 GEMMs' K walk and split-K store (conv_gemm.wgsl) would clash with gemm_tile's
GEMM = Kernel("conv2d_gemm", workgroup=(16, 16, 1), helpers=("conv_gemm.wgsl",))
STEM_GEMM = Kernel("conv2d_stem_gemm", workgroup=(16, 16, 1), helpers=("conv_gemm.wgsl",),
                   overrides={"PADDED": Override("bool", True)})
# the matmul spec's 128x128 tile (B_IS_NK: gemm_tile's B is [K][N], im2col here), like
# the matmul kernels without runtime checks: its loads are guarded by M, the slice's end
# and the input window, its stores by M and N
GEMM128 = Kernel("conv2d_gemm128", workgroup=(16, 16, 1), runtime_checks=False,
                 helpers=("../matmul/gemm_store.wgsl", "../matmul/gemm_tile.wgsl"),
                 consts={"TILE_M": "128u"},
                 overrides={"B_IS_NK": Override("bool", False),
                            "WEIGHT_VEC4": Override("bool", True)})
SPLIT_SUM = Kernel("conv2d_split_sum")
VEC4 = Kernel("conv2d_vec4")
SCALAR = Kernel("conv2d")
TRANSPOSE = Kernel("conv_transpose2d")
TRANSPOSE_GEMM = Kernel("conv_transpose2d_gemm", workgroup=(16, 16, 1))
GEMM_TILE = (64, 64)  # output pixels (B * OH * OW) x output channels per workgroup
GEMM_K_STEP = 16  # input channels per K step (BK in conv2d_gemm.wgsl); k per step in the stem's
# conv2d_stem_gemm (flattened K) below STEM_MAX_IC input channels, where conv2d_gemm's K
# steps would be mostly padding. Unmeasured between 4 and 15 channels (the H200 stems all
# have 3); conv2d_gemm stays reachable there with `opgen bench --force conv2d_gemm`.
STEM_MAX_IC = 16
GEMM_GRID = Tiles(x="B * OH * OW", y="OC", tile=GEMM_TILE, z="split")
# With fewer than SPLIT_BELOW tiles, split K until there are about SPLIT_TARGET
# workgroups, keeping at least MIN_SLICE_STEPS K steps per slice and at most MAX_SPLIT
# slices. Measured on the H200 (132 SMs; docs/performance.md): B1 C256 56x56 (196 tiles)
# went from 0.277 ms unsplit to 0.240 ms in 3 slices and 0.223 ms in 6 (the last with
# double buffering); B8 C128 56x56 (784 tiles) was 10% slower in 2 slices than unsplit.
SPLIT_BELOW = 512
SPLIT_TARGET = 1024
MIN_SLICE_STEPS = 8
MAX_SPLIT = 8
# conv2d_gemm128 (gemm_tile.wgsl: 128x128 tiles of output channels x pixels, K steps of 8)
# serves direct convs with groups == 1 and at least STEM_MAX_IC input channels whose tiles
# are full in channels and at least half full in pixels: OC >= TILE128_MIN_OC and
# B * OH * OW >= TILE128_MIN_PIXELS. Measured on the H200 (docs/performance.md): 64 output
# channels (B1 C64 56²) ran 0.060 ms here against conv2d_gemm's 0.045, 128 and more gained
# 0-27 %; the pixel floor is unmeasured. `opgen bench --force conv2d_gemm` times the other.
TILE128 = 128
TILE128_K_STEP = 8
TILE128_MIN_OC = 128
TILE128_MIN_PIXELS = 64
# Its split-K rule, the matmul spec's with a floor: with fewer than TILE128_SPLIT_BELOW
# tiles, split K into at most TILE128_SPLIT_TARGET // tiles slices (one wave of two
# 256-thread workgroups per SM on the H200's 132: B8 C512 14x14 3x3 has 13 x 4 tiles,
# split 5 -> 260 workgroups), each at least TILE128_MIN_SLICE_STEPS
# K steps, at most TILE128_MAX_SPLIT. Unmeasured for convs.
TILE128_SPLIT_BELOW = 132
TILE128_SPLIT_TARGET = 264
TILE128_MIN_SLICE_STEPS = 16
TILE128_MAX_SPLIT = 16
# Transposed convs take the phase GEMM up to this many phases (stride[0] * stride[1], the
# grid's z); beyond it, the gather kernel. Not a measured threshold: it keeps z far from
# WebGPU's per-dimension limit for strides far larger than any model's. The phase GEMM
# does not split K: a split-sum pass would also run after a forced gather kernel (`opgen
# bench --force conv_transpose2d`) and overwrite its output.
MAX_PHASES = 1024

# input [B, C, H, W] or [B, C, L], weight of the input's rank; the four int lists hold one
# value per spatial dim or one for all (the lets below read them per axis)
FLOATS = (F32, F16)  # float16: every kernel's float16 twins, float32 accumulators
CONV_ARGS = [
    Tensor("input", FLOATS, rank=(3, 4)), Tensor("weight", FLOATS, rank=(3, 4)),
    Tensor("bias", FLOATS, rank=1, optional=True),
    IntList("stride"), IntList("padding"), IntList("dilation"),
    Bool("transposed"), IntList("output_padding"), Int("groups"),
]
SPATIAL_LISTS = {"stride": ("sH", "sW", 1), "padding": ("pH", "pW", 0),
                 "dilation": ("dH", "dW", 1), "output_padding": ("opH", "opW", 0)}


def per_axis(name: str, fill: int) -> tuple[str, str]:
    """A spatial int list read as its H and W values. A rank-3 conv is the rank-4 one with
    H = 1, so its H value is the identity `fill` (stride 1, no padding); one value serves
    every spatial dim. Defined for any length (lets run before the guards that reject a
    wrong one)."""
    return (f"{fill} if rank == 3 else {name}[0] if len({name}) > 0 else {fill}",
            f"{name}[-1] if len({name}) > 0 else {fill}")


def out_size(axis: str, size: str, kernel: str) -> str:
    """The conv output size along one spatial axis (H or W), direct and transposed."""
    s, p, d, op = f"s{axis}", f"p{axis}", f"d{axis}", f"op{axis}"
    return (f"({size} - 1) * {s} - 2 * {p} + {d} * ({kernel} - 1) + {op} + 1 "
            f"if transposed else ({size} + 2 * {p} - {d} * ({kernel} - 1) - 1) // max({s}, 1) + 1")


LETS = {
    # a rank-3 conv (conv1d) runs as the rank-4 one with H = 1: input [B, C, 1, L], weight
    # [OC, IC / groups, 1, K] (transposed: [IC, OC / groups, 1, K]), out [B, OC, 1, OL],
    # the same bytes as the rank-3 tensors
    "rank": "input.rank",
    "B": "input.dims[0]", "IC": "input.dims[1]",
    "IH": "input.dims[2] if rank == 4 else 1", "IW": "input.dims[-1]",
    "KH": "weight.dims[-2] if weight.rank == 4 else 1", "KW": "weight.dims[-1]",
    **{let: expr for name, (h, w, fill) in SPATIAL_LISTS.items()
       for let, expr in zip((h, w), per_axis(name, fill))},
    "g": "max(groups, 1)",
    "OC": "weight.dims[1] * g if transposed else weight.dims[0]",
    "icpg": "IC // g",
    "OH": out_size("H", "IH", "KH"),
    "OW": out_size("W", "IW", "KW"),
    "gemm": "not transposed and groups == 1",
    "stem": f"gemm and IC < {STEM_MAX_IC}",
    "K": "IC * KH * KW",
    "gemm128": f"gemm and not stem and OC >= {TILE128_MIN_OC} and "
               f"B * OH * OW >= {TILE128_MIN_PIXELS}",
    # dilation > 1 and groups > 1 stay on the gather kernel: a dilated tap's phase is not
    # kh % sH, and a grouped GEMM would need a tile per group
    "tgemm": f"transposed and groups == 1 and dH == 1 and dW == 1 and "
             f"sH * sW <= {MAX_PHASES}",
    "tiles": f"ceil_div(B * OH * OW, {GEMM_TILE[0]}) * ceil_div(OC, {GEMM_TILE[1]})",
    # the chosen GEMM kernel's K steps (a forced conv2d_gemm runs with the stem's split)
    "steps": f"ceil_div(KH * KW * IC, {GEMM_K_STEP}) if stem "
             f"else KH * KW * ceil_div(IC, {GEMM_K_STEP})",
    "split64": f"max(1, min(min(ceil_div({SPLIT_TARGET}, max(tiles, 1)), "
               f"steps // {MIN_SLICE_STEPS}), {MAX_SPLIT})) if tiles < {SPLIT_BELOW} else 1",
    "tiles128": f"ceil_div(B * OH * OW, {TILE128}) * ceil_div(OC, {TILE128})",
    "steps128": f"ceil_div(K, {TILE128_K_STEP})",
    "split128": f"max(1, min(min({TILE128_SPLIT_TARGET} // max(tiles128, 1), "
                f"steps128 // {TILE128_MIN_SLICE_STEPS}), {TILE128_MAX_SPLIT})) "
                f"if tiles128 < {TILE128_SPLIT_BELOW} else 1",
    # the chosen route's split; a forced route runs with it (any split is correct)
    "split": "(split128 if gemm128 else split64) if gemm else 1",
    # K per split-K slice of conv2d_gemm128, whole K steps
    "k_chunk": f"ceil_div(steps128, split) * {TILE128_K_STEP}",
}

GUARDS = [
    Guard("weight.rank == rank", "weight", "does not have the input's rank", got="weight.rank",
          expected="{rank}"),
    *[Guard(f"len({name}) == 1 or len({name}) == rank - 2", name,
            "does not hold one value per spatial dim", got=name,
            expected="{'one value' if rank == 3 else 'one or two values'}")
      for name in SPATIAL_LISTS],
    Guard("min(stride) > 0", "stride", "is not positive", got="stride", expected="strides >= 1"),
    Guard("min(dilation) > 0", "dilation", "is not positive", got="dilation",
          expected="dilations >= 1"),
    Guard("min(padding) >= 0", "padding", "is negative", got="padding", expected="paddings >= 0"),
    Guard("KH > 0 and KW > 0", "weight", "has an empty kernel", got="weight.dims",
          expected="KH and KW >= 1"),
    Guard("groups > 0 and IC % g == 0 and OC % g == 0", "groups", "does not divide the channels",
          got="groups", expected="a divisor of IC={IC} and OC={OC}"),
    Guard("transposed or weight.dims[1] == icpg", "weight",
          "does not match the input channels per group", got="weight.dims",
          expected="dims[1] == {icpg}"),
    Guard("not transposed or weight.dims[0] == IC", "weight",
          "does not match the input channels (transposed)", got="weight.dims",
          expected="dims[0] == {IC}"),
    Guard("transposed or (opH == 0 and opW == 0)", "output_padding",
          "is only valid for a transposed conv", got="output_padding",
          expected="{'[0]' if rank == 3 else '[0, 0]'}"),
    Guard("not transposed or (min(output_padding) >= 0 and "
          "opH < max(sH, dH) and opW < max(sW, dW))", "output_padding",
          "is not smaller than stride or dilation", got="output_padding",
          expected="values below {stride} or {dilation}"),
    Guard("not bias.present or bias.numel == OC", "bias", "does not hold one value per output "
          "channel", got="bias.dims", expected="{OC} values"),
    Guard("OH > 0 and OW > 0", "input", "is smaller than the kernel", got="input.dims",
          expected="an output of at least {'1' if rank == 3 else '1x1'}"),
    same_dtype("input", ["weight"], optional=["bias"]),
]


def conv_params(has_min: str, has_max: str, lo: str, hi: str) -> dict:
    return {
        "B": u32("B"), "IC": u32("IC"), "IH": u32("IH"), "IW": u32("IW"),
        "OC": u32("OC"), "OH": u32("OH"), "OW": u32("OW"),
        "KH": u32("KH"), "KW": u32("KW"),
        "sH": u32("sH"), "sW": u32("sW"), "pH": u32("pH"), "pW": u32("pW"),
        "dH": u32("dH"), "dW": u32("dW"),
        "groups": u32("groups"), "split": u32("split"), "has_bias": u32("bias.present"),
        "has_min": u32(has_min), "has_max": u32(has_max),
        "min_value": f32(lo), "max_value": f32(hi),
        # conv2d_gemm128's GEMM (gemm_tile.wgsl): OC x K weights @ K x B * OH * OW pixels
        "M": u32("OC"), "N": u32("B * OH * OW"), "K": u32("K"), "batch": u32("1"),
        "k_chunk": u32("k_chunk"),
    }


def halves(routes: list[Route]) -> list[Route]:
    """The routes' float16 twins, then the routes."""
    return [*half_routes(routes, "input"), *routes]


def conv_op(name: str, target: str, extra_args: list, params: dict, cases: list[Case]) -> Op:
    params = Params(params)  # one block: every pass reads the same conv geometry
    return Op(
        name=name,
        targets=[target],
        args=[*CONV_ARGS, *extra_args, Output("out", FLOATS, rank=(3, 4))],
        let=LETS,
        guards=GUARDS,
        shapes={"out": "[B, OC, OH, OW] if rank == 4 else [B, OC, OW]"},
        flops="2 * KH * KW * (B * IC * IH * IW * (OC // g) if transposed else out.numel * icpg)",
        # the kernels are static-shape: a resized input fails loud
        resize="static",
        # empty when their passes do not run
        # wpack holds the weights in their own dtype: float16 fills half the float32 words
        scratch=[Scratch("wpack", "float32",
                         "[(KH * KW * IC * ceil_div(OC, 4) * (2 if input.dtype == 'float16' "
                         "else 4)) if gemm or tgemm else 0]"),
                 Scratch("partial", "float32", "[split * B * OC * OH * OW if split > 1 else 0]")],
        dispatches=[
            Dispatch(
                name="pack",
                when="gemm or tgemm",
                params=params,
                bindings=[Bind("weight", "weight", view="scalar"),
                          Bind("wpack", "wpack", write=True, view="vec4")],
                routes=halves([Route(PACK, Elementwise("KH * KW * IC * ceil_div(OC, 4)"),
                                     overrides={"TRANSPOSED": "transposed"})]),
            ),
            Dispatch(
                name="gemm",
                when="gemm",
                params=params,
                helpers=["conv_epilogue.wgsl", "conv_gemm_loads.wgsl"],
                # conv2d_gemm128 reads the weights in place, the others wpack
                bindings=[Bind("input", "input", view="scalar"),
                          Bind("weight", "weight", view="vec4"),
                          Bind("wpack", "wpack", view="vec4"),
                          Bind("bias", "bias", view="scalar"),
                          Bind("partial", "partial", write=True),
                          Bind("output", "out", write=True, view="scalar")],
                routes=halves([Route(STEM_GEMM, GEMM_GRID, when="stem",
                                     overrides={"PADDED": "max(pH, pW) > 0"}),
                               Route(GEMM128, Tiles(x="B * OH * OW", y="OC",
                                                    tile=(TILE128, TILE128), z="split"),
                                     when="gemm128", overrides={"WEIGHT_VEC4": "K % 4 == 0"}),
                               Route(GEMM, GEMM_GRID)]),
            ),
            Dispatch(
                name="transposed",
                when="transposed",
                params=params,
                helpers=["conv_epilogue.wgsl", "conv_direct.wgsl", "conv_gemm_loads.wgsl"],
                bindings=[Bind("input", "input", view="scalar"),
                          Bind("weight", "weight", view="scalar"),
                          Bind("wpack", "wpack", view="vec4"), Bind("bias", "bias", view="scalar"),
                          Bind("output", "out", write=True, view="scalar")],
                routes=halves([
                    # one GEMM per output phase (z); tiles past a smaller phase's pixels exit
                    Route(TRANSPOSE_GEMM,
                          Tiles(x="B * ceil_div(OH, sH) * ceil_div(OW, sW)",
                                y="OC", tile=GEMM_TILE, z="sH * sW"),
                          when="tgemm"),
                    Route(TRANSPOSE, Elementwise("out.numel")),
                ]),
            ),
            Dispatch(
                name="direct",
                when="not gemm and not transposed",
                params=params,
                helpers=["conv_epilogue.wgsl", "conv_direct.wgsl"],
                bindings=[Bind("input", "input", view="scalar"),
                          Bind("weight", "weight", view="scalar"),
                          Bind("bias", "bias", view="scalar"),
                          Bind("output", "out", write=True, view="scalar")],
                routes=halves([
                    Route(VEC4, Elementwise("out.numel"), when="icpg % 4 == 0"),
                    Route(SCALAR, Elementwise("out.numel")),
                ]),
            ),
            Dispatch(
                name="split_sum",
                when="split > 1",
                params=params,
                helpers=["conv_epilogue.wgsl"],
                bindings=[Bind("partial", "partial"), Bind("bias", "bias", view="scalar"),
                          Bind("output", "out", write=True, view="scalar")],
                routes=halves([Route(SPLIT_SUM, Elementwise("out.numel"))]),
            ),
        ],
        cases=cases,
    )


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


OPS = [
    conv_op("conv2d", "aten.convolution.default", [],
            conv_params("False", "False", "0.0", "0.0"), cases()),
    conv_op("conv_with_clamp", "et_vk.conv_with_clamp.default",
            [Scalar("output_min", optional=True), Scalar("output_max", optional=True)],
            conv_params("output_min is not None", "output_max is not None", "output_min",
                        "output_max"), clamp_cases()),
]
