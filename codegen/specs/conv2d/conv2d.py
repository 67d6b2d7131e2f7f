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

from codegen.language import (Bind, Case, Dispatch, Elementwise, Kernel, Op, Output, Override,
                              Params, Route, Scalar, Scratch, Tiles, half_routes)
from codegen.specs.conv2d._cases import cases, clamp_cases
from codegen.specs.conv2d._conv_lets import (CONV_ARGS, FLOATS, GEMM_TILE, GUARDS, LETS, TILE128,
                                             conv_params)

PACK = Kernel("conv2d_pack_weights", overrides={"TRANSPOSED": Override("bool", False)})
# the 64x64 tile, the K walk and the split-K store (they would clash with gemm_tile's)
GEMM64 = ("conv_tile64.wgsl", "conv_gemm.wgsl")
GEMM = Kernel("conv2d_gemm", workgroup=(16, 16, 1), helpers=GEMM64)
STEM_GEMM = Kernel("conv2d_stem_gemm", workgroup=(16, 16, 1), helpers=GEMM64,
                   overrides={"PADDED": Override("bool", True)})
# the matmul spec's 128x128 tile (B_IS_NK: gemm_tile's B is [K][N], im2col here), like
# the matmul kernels without runtime checks: its loads are guarded by M, the slice's end
# and the input window, its stores by M and N
GEMM128 = Kernel("conv2d_gemm128", workgroup=(16, 16, 1), runtime_checks=False,
                 helpers=("../matmul/gemm_store.wgsl", "../matmul/gemm_staged_f32.wgsl",
                          "../matmul/gemm_tile.wgsl"),
                 consts={"TILE_M": "128u"},
                 overrides={"B_IS_NK": Override("bool", False),
                            "WEIGHT_VEC4": Override("bool", True)})
SPLIT_SUM = Kernel("conv2d_split_sum")
# the direct kernels: conv_direct.wgsl holds their entry point
VEC4 = Kernel("conv2d_vec4", helpers=("conv_direct.wgsl",))
SCALAR = Kernel("conv2d", helpers=("conv_direct.wgsl",))
TRANSPOSE = Kernel("conv_transpose2d", helpers=("conv_direct.wgsl",))
TRANSPOSE_GEMM = Kernel("conv_transpose2d_gemm", workgroup=(16, 16, 1),
                        helpers=("conv_tile64.wgsl",))
GEMM_GRID = Tiles(x="B * OH * OW", y="OC", tile=GEMM_TILE, z="split")


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
                helpers=["conv_epilogue.wgsl", "conv_gemm_loads.wgsl"],
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
                helpers=["conv_epilogue.wgsl"],
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


OPS = [
    conv_op("conv2d", "aten.convolution.default", [],
            conv_params("False", "False", "0.0", "0.0"), cases()),
    conv_op("conv_with_clamp", "et_vk.conv_with_clamp.default",
            [Scalar("output_min", optional=True), Scalar("output_max", optional=True)],
            conv_params("output_min is not None", "output_max is not None", "output_min",
                        "output_max"), clamp_cases()),
]
