"""linear_q4gsw and linear_dq8ca_q4gsw: linear layers with 4-bit group-symmetric weights,
as ExecuTorch's LLM export (`export_llama --vulkan -qmode 4w` / `8da4w`) emits them.

Schemas (the wheel's backends/vulkan/custom_ops_lib.py):
    linear_q4gsw(self, weights, weight_scales, int group_size, bias?)
    linear_dq8ca_q4gsw(input, input_scales, input_zp, weights, weight_sums,
                       weight_scales, int group_size, bias?)
weights: uint8 [N, K/2], two signed values per byte with +8 offset, the even k in the low
nibble, K padded to 8 (patterns/weight_packing_utils.py); weight_scales [K / group_size,
N] (transposed); out[..., n] = sum_k x[..., k] * (w[n, k] - 8) * scale[k / group_size, n]
(+ bias[n]). linear_dq8ca_q4gsw first quantizes each input row to int8 with its scale and
int8 zero point (torchao.choose_qparams_affine's, per token) and dequantizes it again,
as the eager 8da4w model does; weight_sums (per-group sums of the weights, for integer
kernels) is not needed by float arithmetic and not read.

Three dispatches, switched per execute (Dispatch.active), so one graph serves an LLM's
prefill and its decode steps without a rebuild or a new pipeline:
- one input row (K % 32 == 0, a decode step): bandwidth-bound. q4gsw_gemv_rows
  (q4gsw_rows.wgsl): each thread dots 2 weight rows (4 from 16,384 rows on,
  q4gsw_gemv_rows4: an output projection) with one load of each input quad, 32 threads
  per row, the row's sums added in workgroup memory; on a device with `subgroups`, their
  _subgroup twins add each row's adjacent threads with subgroup shuffles.
- q4gsw_gemv (2..4 input rows and K % 32 == 0): each packed weight row is read once, by
  32 threads with vec4<u32> loads (32 weights), and dotted with every input row; a
  workgroup's 8 rows interleave so that a warp's loads of weights and of the transposed
  scales are runs of adjacent bytes (q4gsw_lanes.wgsl). On a device with `subgroups`,
  q4gsw_gemv_subgroup sums each row's adjacent threads with subgroup shuffles.
- q4gsw_gemm (otherwise, a prefill): the tiled GEMM of the matmul family
  (../matmul/gemm_tile.wgsl, 64 x 128 output tiles), the weights dequantized as they are
  staged in workgroup memory. One tile size, so a graph built for one prompt length runs
  any other; below SPLIT_BELOW tiles (a short prompt, or few output features) K is split
  and q4gsw_split_sum adds the slices, their partial sums in the graph's shared scratch.
float16 activations, scales and bias (a force_fp16 LLM: 4-bit weights, float16 otherwise)
run the kernels' float16 twins: float32 sums, one rounding per output.
"""

from codegen.language import (F16, F32, I8, I32, U8, Bind, Case, Dispatch, Elementwise, Guard,
                              Int, Kernel, Op, Output, Params, Route, Scratch, SpecError, Tensor,
                              Tiles, half_routes, same_dtype, u32)
from codegen.graph.inputs import rand, randint, randn, tensor

GEMV_MAX_ROWS = 4  # input rows the GEMV kernels carry (one vec4 of sums per lane)
ROWS_PER_WORKGROUP = 8  # weight rows per 256-thread GEMV workgroup (q4gsw_lanes' ROWS)
TILE_M, TILE_N = 64, 128  # q4gsw_gemm's output tile (gemm_tile.wgsl's TILE_M, TILE_N)

FLOATS = (F32, F16)
_NIBBLES = ("q4gsw_nibbles.wgsl", "q4gsw_store.wgsl")
_LANES = ("q4gsw_lanes.wgsl",)
_DQ8 = ("q4gsw_dq8.wgsl",)
_INPUT = ("q4gsw_input_vec4.wgsl",)
# the matmul family's tile (values dequantized as they are staged) and its stores
_TILE = ("../matmul/gemm_staged_f32.wgsl", "../matmul/gemm_tile.wgsl",
         "../matmul/gemm_store.wgsl")
# Without runtime checks: every index is in range by construction (weights [N, K / 2] and
# scales [K / group_size, N] by the guards, rows n < N, quads q < K / 32, input rows m < M
# <= 4, workgroup and private arrays by the thread and loop indices). Checked, the M = 1
# path's private array left registers: the decode GEMVs took 1.91 ms per step, unchecked
# 1.61 (16-layer Llama-3.2-1B shape, H100).
GEMV = Kernel("q4gsw_gemv", helpers=_INPUT + _NIBBLES + _LANES, runtime_checks=False)
GEMV_SUBGROUP = Kernel("q4gsw_gemv_subgroup", features=("subgroups",),
                       helpers=GEMV.helpers, runtime_checks=False)
# One input row with ROWS_PER_THREAD weight rows per thread (q4gsw_rows.wgsl): every index
# in range as above (rows past N read row N - 1 and are not stored). Each has a _subgroup
# twin (subgroup_rows below), the portable one's k-lane sums added in workgroup memory.
ROWS_HELPERS = _INPUT + _NIBBLES + ("q4gsw_rows.wgsl", "q4gsw_rows_reduce.wgsl")
GEMV_ROWS = Kernel("q4gsw_gemv_rows", helpers=ROWS_HELPERS,
                   consts={"ROWS_PER_THREAD": "2u", "VALUES": "2u"}, runtime_checks=False)
GEMV_ROWS4 = GEMV_ROWS.variant("q4gsw_gemv_rows4",
                               consts={"ROWS_PER_THREAD": "4u", "VALUES": "4u"})


def subgroup_rows(kernel: Kernel) -> Kernel:
    """`kernel`'s twin `<name>_subgroup`: a rows-layout kernel (q4gsw_rows.wgsl) whose
    reduction is q4gsw_rows_reduce.wgsl, with the subgroup one instead."""
    portable = "q4gsw_rows_reduce.wgsl"
    if not any(h.endswith(portable) for h in kernel.helpers):
        raise SpecError(f"{kernel.name}: no {portable} among its helpers {kernel.helpers}")
    return kernel.variant(f"{kernel.name}_subgroup", features=("subgroups",), helpers=tuple(
        h.replace(portable, "q4gsw_rows_reduce_subgroup.wgsl") for h in kernel.helpers))


# From this many rows, four per thread (the output projection's 128,256 rows: 81 us
# against 95 with two; at 8,192 rows 9.4 against 9.8, at 2,048 7.1 against 6.0; H100,
# tools/probes/probe_decode_kernels.py)
ROWS4_FROM = 16384
TILED = Kernel("q4gsw_gemm", workgroup=(16, TILE_M // 8, 1),
               consts={"TILE_M": f"{TILE_M}u", "B_IS_NK": "true"},
               helpers=_INPUT + _NIBBLES + _TILE)
# Split K where a prefill has few tiles: 512 x 2048 x 2048 is 128 tiles, one workgroup per
# SM, and ran at 4 TFLOP/s where 512 x 8192 x 2048 (512 tiles) ran at 30 (H100). Below
# SPLIT_BELOW tiles, K is cut into slices of at least MIN_SLICE_K until about
# SPLIT_TARGET workgroups run (four per SM of the H200's 132); q4gsw_split_sum (the
# matmul family's gemm_split_sum with q4gsw_store.wgsl's epilogue) adds the slices'
# partial sums and the bias.
SPLIT_BELOW = 264
SPLIT_TARGET = 528
MIN_SLICE_K = 256
SPLIT_SUM = Kernel("q4gsw_split_sum", file="../matmul/gemm_split_sum.wgsl",
                   helpers=("q4gsw_store.wgsl",))
# linear_dq8ca_q4gsw's: the same bodies, their inputs quantized and dequantized
_GEMV_DQ8 = _DQ8 + ("q4gsw_input_vec4_dq8.wgsl",) + _NIBBLES + _LANES
GEMV_DQ8 = GEMV.variant("q4gsw_gemv_dq8", helpers=_GEMV_DQ8)
GEMV_SUBGROUP_DQ8 = GEMV_SUBGROUP.variant("q4gsw_gemv_subgroup_dq8", helpers=_GEMV_DQ8)
_ROWS_DQ8 = _DQ8 + ("q4gsw_input_vec4_dq8.wgsl",) + ROWS_HELPERS[len(_INPUT):]
GEMV_ROWS_DQ8 = GEMV_ROWS.variant("q4gsw_gemv_rows_dq8", helpers=_ROWS_DQ8)
GEMV_ROWS4_DQ8 = GEMV_ROWS4.variant("q4gsw_gemv_rows4_dq8", helpers=_ROWS_DQ8)
TILED_DQ8 = TILED.variant("q4gsw_gemm_dq8", helpers=_DQ8 + ("q4gsw_input_vec4_dq8.wgsl",) +
                          _NIBBLES + _TILE)


def _reference(x, weights, weight_scales, group_size, bias=None):
    """ExecuTorch's own linear_q4gsw reference (custom_ops_lib.py). It dequantizes the
    weights to float32 whatever the input's dtype, so it runs in float32 as the model
    does."""
    import torch

    import executorch.backends.vulkan.custom_ops_lib  # noqa: F401  registers et_vk

    return torch.ops.et_vk.linear_q4gsw(x.float(), weights, weight_scales.float(), group_size,
                                        None if bias is None else bias.float())


def _reference_dq8(x, input_scales, input_zp, weights, weight_sums, weight_scales,
                   group_size, bias=None):
    """The eager 8da4w model's arithmetic: each input row quantized to int8 with its
    scale and zero point and dequantized (torchao's ops, float32 as the model runs), then
    ExecuTorch's own linear_q4gsw reference."""
    import torch

    block = [1] * (x.dim() - 1) + [x.shape[-1]]
    scales = input_scales.float()
    q = torch.ops.torchao.quantize_affine(x.float(), block, scales, input_zp, torch.int8,
                                          -128, 127)
    xq = torch.ops.torchao.dequantize_affine(q, block, scales, input_zp, torch.int8, -128, 127)
    return _reference(xq, weights, weight_scales, group_size, bias)


LETS = {
    "K": "self.dims[-1]",
    "N": "weights.dims[0]",
    "M": "self.numel // max(K, 1)",
    "gemv": f"M <= {GEMV_MAX_ROWS} and K % 32 == 0",
}
def weights_guard(w: str) -> Guard:
    """Packed weights `w` hold the input's K values (padded to 8) per row, two per byte."""
    return Guard(f"{w}.dims[1] * 2 == ceil_div(K, 8) * 8", w,
                 "does not hold the input's K values (padded to 8) per row, two per byte",
                 got=f"{w}.dims", expected="[N, {ceil_div(K, 8) * 4}]")


def scales_guard(s: str, rows: str) -> Guard:
    """Scales `s` hold one scale per group and output feature (`rows` of them)."""
    return Guard(f"{s}.dims == [K // group_size, {rows}]", s,
                 "does not hold one scale per group and output feature", got=f"{s}.dims",
                 expected=f"[{{K // group_size}}, {{{rows}}}]")


GROUP_GUARD = Guard("group_size > 0 and group_size % 8 == 0 and K % group_size == 0",
                    "group_size", "does not split K into groups of whole packed words",
                    got="group_size", expected="a multiple of 8 dividing {K}")
GUARDS = [
    weights_guard("weights"), GROUP_GUARD, scales_guard("weight_scales", "N"),
    Guard("not bias.present or bias.numel == N or bias.numel == ceil_div(N, 4) * 4", "bias",
          "does not hold one value per output feature", got="bias.dims",
          expected="[{N}] (or padded to a multiple of 4)"),
]
PARAMS = Params({
    "M": u32("M"), "N": u32("N"), "K": u32("K"), "row_words": u32("weights.dims[1] // 4"),
    "group_size": u32("group_size"), "has_bias": u32("bias.present"),
})
# gemm_tile's walk of K in one slice (split and k_chunk are its split-K parameters)
TILED_PARAMS = Params({**PARAMS.fields, "batch": u32("1"), "split": u32("split"),
                       "k_chunk": u32("k_chunk")}, name="Tiled")


def _slices(tile_rows: str, rows: str) -> str:
    """K slices of `tile_rows` rows of tiles of `rows` output features."""
    tiles = f"{tile_rows} * ceil_div({rows}, {TILE_N})"
    return (f"(min(ceil_div({SPLIT_TARGET}, {tiles}), max(1, K // {MIN_SLICE_K})) "
            f"if {tiles} < {SPLIT_BELOW} else 1)")


def split_lets(rows: str, suffix: str = "") -> dict:
    """The lets `split<suffix>` (K slices of the tiled route for `rows` output features;
    1 for a GEMV), `k_chunk<suffix>` (K per slice, whole steps of 8) and
    `partial_rows<suffix>` (rows x slices of partial sums the scratch must hold: the most
    of any row count up to M, since a graph is built at its largest shapes and a shorter
    prompt has fewer tiles, so more slices)."""
    rows_of = f"min((t + 1) * {TILE_M}, M)"  # t + 1 rows of tiles
    slices = _slices("(t + 1)", rows)
    return {f"split{suffix}": f"{_slices(f'ceil_div(M, {TILE_M})', rows)} if not gemv else 1",
            f"k_chunk{suffix}": f"ceil_div(ceil_div(K, 8), split{suffix}) * 8",
            f"partial_rows{suffix}": f"max([{rows_of} * {slices} if {slices} > 1 else 0 "
                                     f"for t in range(ceil_div(M, {TILE_M}))] + [0])"}


def split_sum(params: Params, output: str, bias: str, x: str, split: str,
              rows: str) -> Dispatch:
    """The tiled route's second pass when it splits K (`split`, a let): the slices' partial
    sums added, with the bias, into `output` (`rows` output features)."""
    route = Route(SPLIT_SUM, Elementwise(f"M * {rows}"))
    return Dispatch(name=f"split_sum{split.removeprefix('split')}",
                    active=f"not gemv and {split} > 1", params=params,
                    bindings=[Bind("partial", "partial"), Bind("bias", bias, view="scalar"),
                              Bind("output", output, write=True, view="scalar")],
                    routes=[*half_routes([route], x), route])


def partial_scratch(splits: list[tuple[str, str]]) -> Scratch:
    """The partial sums of the split tiled routes ((let suffix, rows) each, as split_lets
    names them), sized for any resize. One buffer for the whole graph (shared): 21-25 MB
    an op at a Llama-3.2-1B's shapes, 1.3 GB more GPU memory as a buffer per op."""
    sizes = ", ".join(f"partial_rows{suffix} * {rows}" for suffix, rows in splits)
    return Scratch("partial", "float32", f"[max([{sizes}])]", shared=True)


def _dispatches(input_binds: list[Bind], gemv: tuple[Kernel, Kernel], tiled: Kernel,
                rows: tuple[Kernel, Kernel]) -> list:
    """The dispatches: one input row (a decode step) on the rows kernels (`rows`: four
    rows per thread, two; their _subgroup twins where the device has subgroups), a few on
    `gemv` (subgroup and portable kernels), more on the tiles. A dispatch's route is
    fixed when the graph is built, and a graph built for a prefill runs its decode steps,
    so one input row is a dispatch of its own (switched per execute by `active`), not a
    route."""
    x = input_binds[0].arg

    def binds(a_view: str, w_elem: str) -> list[Bind]:
        return [Bind("a", x, view=a_view), *input_binds[1:],
                Bind("w", "weights", elem=w_elem), Bind("scales", "weight_scales", view="scalar"),
                Bind("bias", "bias", view="scalar"),
                Bind("output", "out", write=True, view="scalar")]
    partial = Bind("partial", "partial", write=True)

    def halves(routes: list[Route]) -> list[Route]:
        return [*half_routes(routes, x), *routes]
    lanes = [Route(k, Elementwise(f"ceil_div(N, {ROWS_PER_WORKGROUP}) * 256")) for k in gemv]

    def one_row(rows4: Kernel, rows2: Kernel) -> list[Route]:
        return [Route(rows4, Elementwise("ceil_div(N, 32) * 256"), when=f"N >= {ROWS4_FROM}"),
                Route(rows2, Elementwise("ceil_div(N, 16) * 256"))]
    return [
        Dispatch(name="gemv_one_row", active="gemv and M == 1", params=PARAMS,
                 bindings=binds("vec4", "vec4<u32>"),
                 routes=halves(one_row(*map(subgroup_rows, rows)) + one_row(*rows))),
        Dispatch(name="gemv", active="gemv and M > 1", params=PARAMS,
                 bindings=binds("vec4", "vec4<u32>"), routes=halves(lanes)),
        Dispatch(name="tiled", active="not gemv", params=TILED_PARAMS,
                 bindings=[*binds("vec4", "u32"), partial],
                 routes=halves([Route(tiled, Tiles(x="N", y="M", tile=(TILE_N, TILE_M),
                                                   z="split"))])),
        split_sum(TILED_PARAMS, "out", "bias", x, "split", "N"),
    ]


def bias_free_tiled(name: str, kernel: Kernel, weights: str, scales: str, output: str,
                    rows: str, split: bool = False) -> list[Dispatch]:
    """A fused op's prefill of one bias-free projection on the tiled kernel (`kernel`:
    TILED or a variant with other stores): input `self`, `rows` output features. With
    `split`, K slices as the op's lets `split_<name>` and `k_chunk_<name>` say
    (split_lets(rows, "_<name>")) and a split_sum pass; without, one slice."""
    slices, chunk = (f"split_{name}", f"k_chunk_{name}") if split else ("1", "K")
    params = Params({"M": u32("M"), "N": u32(rows), "K": u32("K"),
                     "row_words": u32(f"{weights}.dims[1] // 4"), "group_size": u32("group_size"),
                     "has_bias": u32("0"), "batch": u32("1"), "split": u32(slices),
                     "k_chunk": u32(chunk)},
                    name=f"Tiled{name.capitalize()}")
    route = Route(kernel, Tiles(x=rows, y="M", tile=(TILE_N, TILE_M), z=slices))
    # has_bias is 0: never read, but the tile's store_output names a binding
    tiled = Dispatch(
        name=f"tiled_{name}", active="not gemv", params=params,
        bindings=[Bind("a", "self", view="vec4"), Bind("w", weights, elem="u32"),
                  Bind("scales", scales, view="scalar"), Bind("bias", scales, view="scalar"),
                  Bind("output", output, write=True, view="scalar"),
                  Bind("partial", "partial", write=True)],
        routes=[*half_routes([route], "self"), route])
    return [tiled, split_sum(params, output, scales, "self", slices, rows)] if split else [tiled]


def matrix_shape_cases(args: tuple, matrices: list[tuple[str, int]]) -> list[Case]:
    """A fused op's negative cases: for matrix i (name x, `rows` rows, its weights w_x at
    args[1 + 2i] and scales s_x after them, K = 64, group 32), weights without K / 2 bytes
    a row and scales of another shape."""
    cases = []
    for i, (x, rows) in enumerate(matrices):
        w, s = 1 + 2 * i, 2 + 2 * i
        cases.append(Case(f"w_{x}_width",
                          args[:w] + (randint(0, 256, rows, 16, dtype="uint8"),) + args[w + 1:],
                          raises=f"w_{x} does not hold the input's K values (padded to 8) per "
                                 f"row, two per byte (got [{rows}, 16], expected [N, 32])"))
        cases.append(Case(f"s_{x}_shape", args[:s] + (randn(4, rows),) + args[s + 1:],
                          raises=f"s_{x} does not hold one scale per group and output feature "
                                 f"(got [4, {rows}], expected [2, {rows}])"))
    return cases


def _w(n, k, group, m=(1,), bias=True, dtype="float32"):
    """(input, weights, scales, group_size, bias) for an [*m, k] input and n outputs."""
    return (randn(*m, k, dtype=dtype), randint(0, 256, n, -(-k // 8) * 4, dtype="uint8"),
            rand(k // group, n, low=-0.2, high=0.2, dtype=dtype), group,
            randn(n, dtype=dtype) if bias else None)


LINEAR_Q4GSW = Op(
    name="linear_q4gsw",
    targets=["et_vk.linear_q4gsw.default"],
    args=[Tensor("self", FLOATS, rank=(1, 8)), Tensor("weights", dtypes=(U8,), rank=2),
          Tensor("weight_scales", FLOATS, rank=2), Int("group_size"),
          Tensor("bias", FLOATS, rank=1, optional=True), Output("out", FLOATS)],
    let={**LETS, **split_lets("N")},
    guards=[*GUARDS, same_dtype("self", ["weight_scales", "out"], optional=["bias"])],
    shapes={"out": "self.dims[:-1] + [N]"},
    flops="2 * M * N * K",
    resize="dynamic",
    scratch=[partial_scratch([("", "N")])],
    reference=_reference,
    dispatches=_dispatches([Bind("a", "self")], (GEMV_SUBGROUP, GEMV), TILED,
                           (GEMV_ROWS4, GEMV_ROWS)),
    cases=[
        # decode: one token, 48 outputs in 3 workgroups of 16 rows, 2 quads of K per row
        Case("decode", _w(48, 64, 32, bias=False), route="q4gsw_gemv_rows_subgroup"),
        # 37 outputs: the last workgroup's rows past N idle; a 3-D token input, group 64
        Case("decode_bias_3d", _w(37, 128, 64, m=(1, 1)), route="q4gsw_gemv_rows_subgroup"),
        # an output projection's many rows: four per thread, the last workgroup's ragged
        Case("decode_many_rows", _w(ROWS4_FROM + 24, 64, 32, bias=False),
             route="q4gsw_gemv_rows4_subgroup"),
        # K of 66 quads: each row's threads take 2 or 3 quads (the decode GEMVs' 64)
        Case("decode_long_rows", _w(24, 2112, 32, bias=False),
             route="q4gsw_gemv_rows_subgroup"),
        # four rows in the lanes' vec4; 96 = 3 quads over 32 lanes (29 lanes idle)
        Case("gemv_four_rows", _w(16, 96, 32, m=(4,)), route="q4gsw_gemv_subgroup"),
        # group 8: every word of a quad has its own scale
        Case("gemv_small_groups", _w(24, 64, 8), route="q4gsw_gemv_rows_subgroup"),
        # a prefill of 9 tokens: one 64-row tile, 70 outputs in two column tiles
        Case("prefill", _w(70, 64, 32, m=(1, 9)), route="q4gsw_gemm"),
        # one tile and K of 100 steps: three slices of 34, 34 and 32 steps (slice ends
        # inside groups), summed with the bias
        Case("prefill_split_k", _w(36, 800, 32, m=(1, 9)), route="q4gsw_split_sum"),
        # built for 512 rows (264 tiles: one slice), run for 9 (33 tiles: two slices): the
        # partial sums' scratch holds what the shorter prompt needs
        Case("prefill_shorter_prompt_splits", _w(33 * 128, 512, 32, m=(1, 512), bias=False),
             resize={"self": (1, 9, 512)}, route="q4gsw_split_sum", atol=1e-4),
        Case("f16_prefill_split_k", _w(36, 800, 32, m=(1, 9), bias=False, dtype="float16"),
             route="q4gsw_split_sum_f16"),
        # K = 24 (not a whole vec4<u32> per row): the tiles serve a single row too
        Case("unaligned_k", _w(12, 24, 8), route="q4gsw_gemm"),
        # 130 rows x 20 outputs: three row tiles, K (48) in three steps of 16
        Case("tiles_many_rows", _w(20, 48, 16, m=(130,))),
        # one graph for prefill and decode: built for 7 tokens (tiles), run for 1 (GEMV)
        Case("prefill_then_decode", _w(40, 64, 32, m=(1, 7)), resize={"self": (1, 1, 64)},
             route="q4gsw_gemv_rows_subgroup"),
        Case("decode_after_prefill", _w(40, 64, 32, m=(1, 7)), resize={"self": (1, 3, 64)},
             route="q4gsw_gemv_subgroup"),
        # float16 (a force_fp16 LLM): decode on the GEMV, prefill on the tiles (no bias:
        # ExecuTorch's op gives a float32 output for a float16 input with a bias, below)
        Case("f16_decode", _w(48, 64, 32, bias=False, dtype="float16"),
             route="q4gsw_gemv_rows_subgroup_f16"),
        Case("f16_decode_many_rows", _w(ROWS4_FROM + 8, 64, 32, bias=False, dtype="float16"),
             route="q4gsw_gemv_rows4_subgroup_f16"),
        Case("f16_gemv_two_rows_small_groups",
             _w(24, 64, 8, bias=False, dtype="float16", m=(2,)),
             route="q4gsw_gemv_subgroup_f16"),
        Case("f16_prefill", _w(70, 64, 32, m=(1, 9), bias=False, dtype="float16"),
             route="q4gsw_gemm_f16"),
        Case("rejects_float32_out", _w(8, 64, 32, dtype="float16"),
             raises="self does not share its dtype with weight_scales, out and bias (got "
                    "float16, expected the dtype of weight_scales, out and bias)"),
        Case("rejects_mixed_floats", _w(8, 64, 32, dtype="float16")[:2] +
             (rand(2, 8, low=-0.2, high=0.2), 32, None),
             raises="self does not share its dtype with weight_scales, out and bias (got "
                    "float16, expected the dtype of weight_scales, out and bias)"),
        Case("weights_width", (randn(1, 64), randint(0, 256, 8, 16, dtype="uint8"),
                               randn(2, 8), 32, None),
             raises="weights does not hold the input's K values (padded to 8) per row, two per "
                    "byte (got [8, 16], expected [N, 32])"),
        Case("group_not_words", _w(8, 64, 32)[:3] + (12, None),
             raises="group_size does not split K into groups of whole packed words (got 12, "
                    "expected a multiple of 8 dividing 64)"),
        Case("scales_shape", _w(8, 64, 32)[:2] + (randn(8, 2), 32, None),
             raises="weight_scales does not hold one scale per group and output feature (got "
                    "[8, 2], expected [2, 8])"),
        Case("bias_length", _w(8, 64, 32)[:4] + (randn(6),),
             raises="bias does not hold one value per output feature (got [6], expected [8] (or "
                    "padded to a multiple of 4))"),
        Case("float_weights", (randn(1, 16), randn(4, 8), randn(1, 4), 16, None),
             raises="weights has an unsupported dtype (got float32, expected uint8)"),
    ],
)


def _dq8(n, k, group, m=(1,), bias=False, zp_range=(-20, 20), dtype="float32"):
    """linear_dq8ca_q4gsw's arguments: the input's rows with a scale and zero point each."""
    x, w, s, g, b = _w(n, k, group, m, bias, dtype)
    rows = m
    return (x, rand(*rows, low=0.01, high=0.05, dtype=dtype),
            randint(*zp_range, *rows, dtype="int8"), w,
            randint(-100, 100, k // group, n, dtype="int32"), s, g, b)


def _with(args: tuple, i: int, value) -> tuple:
    return args[:i] + (value,) + args[i + 1:]


LINEAR_DQ8CA_Q4GSW = Op(
    name="linear_dq8ca_q4gsw",
    targets=["et_vk.linear_dq8ca_q4gsw.default"],
    args=[Tensor("input", FLOATS, rank=(1, 8)), Tensor("input_scales", FLOATS, rank=(0, 7)),
          Tensor("input_zp", dtypes=(I8,), rank=(0, 7)), Tensor("weights", dtypes=(U8,), rank=2),
          Tensor("weight_sums", dtypes=(I32,), rank=2), Tensor("weight_scales", FLOATS, rank=2),
          Int("group_size"), Tensor("bias", FLOATS, rank=1, optional=True),
          Output("out", FLOATS)],
    let={**LETS, "K": "input.dims[-1]", "M": "input.numel // max(K, 1)", **split_lets("N")},
    guards=[
        Guard("input_scales.numel == M and input_zp.numel == M", "input_scales",
              "does not hold one scale and zero point per input row", got="input_scales.dims",
              expected="{M} values (input_zp too)"),
        *GUARDS,
        Guard("weight_sums.dims == weight_scales.dims", "weight_sums",
              "does not hold one sum per group and output feature", got="weight_sums.dims",
              expected="{weight_scales.dims}"),
        same_dtype("input", ["input_scales", "weight_scales", "out"], optional=["bias"]),
    ],
    shapes={"out": "input.dims[:-1] + [N]"},
    flops="2 * M * N * K",
    resize="dynamic",
    scratch=[partial_scratch([("", "N")])],
    reference=_reference_dq8,
    dispatches=_dispatches([Bind("a", "input"),
                            Bind("input_scales", "input_scales", view="scalar"),
                            Bind("input_zp", "input_zp", elem="u32"),
                            Bind("weight_sums", "weight_sums")],
                           (GEMV_SUBGROUP_DQ8, GEMV_DQ8), TILED_DQ8,
                           (GEMV_ROWS4_DQ8, GEMV_ROWS_DQ8)),
    cases=[
        Case("decode", _dq8(48, 64, 32, m=(1, 1)), route="q4gsw_gemv_rows_dq8_subgroup"),
        Case("decode_many_rows", _dq8(ROWS4_FROM + 16, 64, 32, m=(1, 1), bias=True),
             route="q4gsw_gemv_rows4_dq8_subgroup"),
        Case("decode_long_rows", _dq8(24, 2112, 32, m=(1, 1)),
             route="q4gsw_gemv_rows_dq8_subgroup"),
        Case("gemv_rows_bias", _dq8(24, 96, 32, m=(3,), bias=True),
             route="q4gsw_gemv_subgroup_dq8"),
        # zero points at the int8 edges: rows clamp at -128 and 127
        Case("zero_point_edges", _dq8(16, 64, 32, m=(2,), zp_range=(-128, 128)),
             route="q4gsw_gemv_subgroup_dq8"),
        Case("prefill", _dq8(36, 64, 32, m=(1, 11), bias=True), route="q4gsw_gemm_dq8"),
        Case("prefill_split_k", _dq8(36, 800, 32, m=(1, 11), bias=True),
             route="q4gsw_split_sum"),
        Case("prefill_then_decode", _dq8(40, 64, 32, m=(1, 6)),
             resize={"input": (1, 1, 64), "input_scales": (1, 1), "input_zp": (1, 1)},
             route="q4gsw_gemv_rows_dq8_subgroup"),
        Case("f16_decode", _dq8(48, 64, 32, m=(1, 1), dtype="float16"),
             route="q4gsw_gemv_rows_dq8_subgroup_f16"),
        Case("f16_decode_many_rows", _dq8(ROWS4_FROM + 8, 64, 32, m=(1, 1), dtype="float16"),
             route="q4gsw_gemv_rows4_dq8_subgroup_f16"),
        Case("f16_gemv_rows", _dq8(24, 64, 32, m=(2,), dtype="float16"),
             route="q4gsw_gemv_subgroup_dq8_f16"),
        Case("f16_prefill_split_k", _dq8(36, 800, 32, m=(1, 11), dtype="float16"),
             route="q4gsw_split_sum_f16"),
        Case("f16_prefill", _dq8(36, 64, 32, m=(1, 11), dtype="float16"),
             route="q4gsw_gemm_dq8_f16"),
        # ExecuTorch's op gives float32 for a float16 input with a bias: one storage cannot
        Case("rejects_float32_out", _dq8(8, 64, 32, m=(1, 3), bias=True, dtype="float16"),
             raises="input does not share its dtype with input_scales, weight_scales, out and "
                    "bias (got float16, expected the dtype of input_scales, weight_scales, out "
                    "and bias)"),
        Case("scales_per_row", _with(_dq8(8, 64, 32, m=(1, 4)), 1, randn(1, 3)),
             raises="input_scales does not hold one scale and zero point per input row (got "
                    "[1, 3], expected 4 values (input_zp too))"),
        Case("weights_width", _with(_dq8(8, 64, 32), 3, randint(0, 256, 8, 16, dtype="uint8")),
             raises="weights does not hold the input's K values (padded to 8) per row, two per "
                    "byte (got [8, 16], expected [N, 32])"),
        Case("group_not_words", _with(_dq8(8, 64, 32), 6, 20),
             raises="group_size does not split K into groups of whole packed words (got 20, "
                    "expected a multiple of 8 dividing 64)"),
        Case("scales_shape", _with(_dq8(8, 64, 32), 5, randn(4, 8)),
             raises="weight_scales does not hold one scale per group and output feature (got "
                    "[4, 8], expected [2, 8])"),
        Case("bias_length", _with(_dq8(8, 64, 32), 7, randn(9)),
             raises="bias does not hold one value per output feature (got [9], expected [8] (or "
                    "padded to a multiple of 4))"),
        Case("sums_shape", _with(_dq8(8, 64, 32), 4, tensor([[1, 2]], dtype="int32")),
             raises="weight_sums does not hold one sum per group and output feature (got "
                    "[1, 2], expected [2, 8])"),
    ],
)

OPS = [LINEAR_Q4GSW, LINEAR_DQ8CA_Q4GSW]
