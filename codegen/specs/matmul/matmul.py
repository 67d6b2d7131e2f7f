"""The GEMM family: mm, bmm, addmm and linear on one set of kernels.

out[z] = alpha * A[z] @ B[z] + beta * bias, with A [M, K] row-major and B either [K, N]
(mm, bmm, addmm) or [N, K] (linear's weight). linear's vec4 routes read the weight packed
to [K, N] by a pass of its own (linear_pack_weight), which a model runs once, at load (its
weight is a constant; the loader then frees the [N, K] copy): on the H200 the [K, N]
tiles ran 10-14 % faster than reading [N, K] in place at ViT-B's 196-row shapes. The pass
has params of its own (K and N), so resizing M never makes it run again. gemm_scalar
(unaligned K or N) and the GEMV route read [N, K] in place. Routes:
- gemv_rows (linear with M <= 8 and K % 4 == 0, e.g. LLM decode): bandwidth-bound, each
  weight row read once with vec4 loads and dotted with every input row. On a device with
  `subgroups`, gemv_rows_subgroup: the same with the lanes' sums reduced by subgroupAdd;
  gemv_rows is its portable fallback.
- gemv_nn (mm, bmm, addmm with M <= 8 and K, N multiples of 4, e.g. decode attention):
  bandwidth-bound, B read once with vec4 loads along N, K split across lanes (and, with
  few workgroups, across workgroups like the tiled route). Unaligned K or N keeps the
  tiled route (gemm_scalar).
- gemm_vec4, gemm_vec4_m64, gemm_vec4_m32 (K and N multiples of 4): output tiles of 128
  columns and 128, 64 or 32 rows, 8x8 per thread (gemm_tile.wgsl), vec4 global loads.
  The tile and the split of K across workgroups (z; a partial buffer that gemm_split_sum
  adds before the epilogue) are the pair of least estimated time (`tile_cost`): fewer
  rows per workgroup fill the SMs more evenly at a few hundred rows, split K fills them
  when the tiles are few against a long K.
- gemm_scalar (unaligned K or N): gemm_tile.wgsl's 128x128 tile with scalar loads, split
  as the estimate says for that tile; gemm_small_scalar instead (at most 256 rows, where
  128x128 tiles would leave SMs idle but 32x32 tiles fill them, e.g. attention over 197
  tokens): 32x32 tiles, 4x4 per thread (gemm_small_tile.wgsl), split K by its own counts.
gemv_nn and the vec4 tiles are routes of one dispatch sharing the split-K let, so `opgen
bench --force gemm_vec4` times the 128 tile, at gemv_nn's split, on a GEMV shape (and a
forced tile keeps the chosen tile's split). A resize that crosses a route boundary (e.g.
M from 9 to 8, or into another tile) fails loud, like any resize into a different set of
dispatches or kernel route. H200 figures per route: docs/performance.md ("Tile and split
per shape").
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Elementwise, Guard, Kernel, Op,
                              Output, Override, Params, Route, Scalar, Scratch, Tensor, Tiles, f32,
                              half_routes, same_dtype, u32)
from codegen.graph.inputs import rand, randn, tensor
from codegen.specs.matmul._half_cases import addmm_cases, bmm_cases, linear_cases, mm_cases

TILE = 128  # output columns per workgroup of every tile, and rows of gemm_vec4's
K_STEP = 8  # K per staged step (K_STEP in gemm_tile.wgsl)
SMS = 132  # the H200's SMs: workgroups are dealt out over them
# Tile and split-K choice (aligned rows: the vec4 tiles; unaligned: the 128 tile's split)
# from a cost estimate per (tile rows, slices), all in ns: each SM runs its share of the
# workgroups, ceil(workgroups / SMS), each costing its rows x K steps x ROW_STEP_NS; an
# SM holding fewer than FLOOR[rows] / 100 workgroups is latency-bound and takes as long
# as that many would; split K costs SPLIT_NS plus the partial sums written and read
# back at SPLIT_BYTES_PER_NS. Slices hold at least MIN_SLICE_STEPS K steps, at most
# MAX_SPLIT of them. The 128 tile's ROW_STEP_NS and FLOOR come from its rounds on the H200
# (docs/performance.md: 2.97 ms at 4096³, eight workgroups per SM of 512 steps; one
# workgroup alone on an SM took 0.62 of the time of two); the rest were fitted to one
# H200 run of benchmarks/bench_gemm_routes.py (every tile and split on nine shapes of 128
# to 1576 rows): the picks below cost 1.7 % more than each shape's fastest configuration
# in total. The 32-row tile is slower per row than its thread count suggests (800 ns
# against 586), so it wins only where its finer rows or splits save more (ViT-B's 196 x
# 768 x 768 and x 2304); the larger tile wins ties, so 4096³, 512 x 2048 x 8192 and 1576
# x 768 x 2304 keep the 128 tile unsplit as measured before.
TILE_ROWS = (128, 64, 32)  # gemm_vec4, gemm_vec4_m64, gemm_vec4_m32
ROW_STEP_NS = {128: 586, 64: 586, 32: 800}  # per 100 rows x K step of 8
FLOOR = {128: 124, 64: 250, 32: 200}  # workgroups x 100
WG_STEPS = 2  # a workgroup's first load and its stores, in K steps
SPLIT_NS = 1500  # the split-sum pass's launch and wait
SPLIT_BYTES_PER_NS = 1000  # partial sums written, then read back with the output
MIN_SLICE_STEPS = 4
MAX_SPLIT = 16
SPLIT_BELOW = 132  # gemm_small_scalar's rule: fewer 128x128 tiles than SMs
# Rows up to which the GEMV routes run: gemv_rows.wgsl accumulates input rows in two vec4s
# (lo, hi), gemv_nn.wgsl in eight named vectors.
GEMV_MAX_ROWS = 8

OVERRIDES = {"B_IS_NK": Override("bool", False)}
# The tiled kernels run without runtime checks (1.13x on the H200 at 4096³): gemm_tile's
# workgroup indices stay below 512 by its arithmetic, and every global read and write is
# guarded by M, N and the slice's end (partial by split * batch * M * N).
# gemm_vec4 and gemm_scalar: one body (gemm.wgsl on gemm_tile.wgsl), its loaders from the
# dispatch (gemm_loads_vec4.wgsl, gemm_loads_scalar.wgsl); the vec4 variants with fewer
# rows per workgroup (TILE_M) and threads (16 x TILE_M / 8)
GEMM_VEC4 = Kernel("gemm_vec4", file="gemm.wgsl", workgroup=(16, 16, 1), overrides=OVERRIDES,
                   runtime_checks=False, helpers=("gemm_tile.wgsl",),
                   consts={"TILE_M": "128u"})
GEMM_VEC4_M64 = GEMM_VEC4.variant("gemm_vec4_m64", workgroup=(16, 8, 1),
                                  consts={"TILE_M": "64u"})
GEMM_VEC4_M32 = GEMM_VEC4.variant("gemm_vec4_m32", workgroup=(16, 4, 1),
                                  consts={"TILE_M": "32u"})
TILE_KERNELS = {128: GEMM_VEC4, 64: GEMM_VEC4_M64, 32: GEMM_VEC4_M32}
GEMM_SCALAR = GEMM_VEC4.variant("gemm_scalar")
# 32x32 tiles (gemm_small_tile.wgsl: workgroup indices below 128 by its arithmetic, loads
# and stores the dispatch's) for unaligned rows where 128x128 tiles leave the GPU idle
# but 32x32 tiles fill it: fewer than SPLIT_BELOW tiles of 128, at least SPLIT_BELOW of 32,
# at most SMALL_MAX_ROWS rows (attention over 197 tokens). Split K below
# SMALL_SPLIT_BELOW tiles, aiming at SMALL_SPLIT_TARGET workgroups: at 196 x 768 x 768
# (168 tiles) 4 slices ran 0.030 ms against 0.043 unsplit.
GEMM_SMALL_SCALAR = Kernel("gemm_small_scalar", workgroup=(8, 8, 1),
                           overrides=OVERRIDES, runtime_checks=False,
                           helpers=("gemm_small_tile.wgsl",))
SMALL_TILE = 32
SMALL_MAX_ROWS = 256
SMALL_SPLIT_BELOW = 264
SMALL_SPLIT_TARGET = 528
SPLIT_SUM = Kernel("gemm_split_sum")
GEMV = Kernel("gemv_rows", workgroup=(256, 1, 1))
GEMV_NN = Kernel("gemv_nn", workgroup=(256, 1, 1), overrides=OVERRIDES)
GEMV_NN_COLS = 128  # output columns per gemv_nn workgroup (COLS column quads)
GEMV_NN_ROWS = 8  # rows of A per gemv_nn workgroup (ROWS)
GEMV_SUBGROUP = Kernel("gemv_rows_subgroup", workgroup=(256, 1, 1), features=("subgroups",))
# linear's weight [N, K] -> [K, N] vec4s for the vec4 routes (N % 4 == 0)
PACK = Kernel("linear_pack_weight")


def tile_cost(rows: int, s: str) -> str:
    """The estimated ns of the tile with `rows` rows per workgroup in `s` K slices."""
    compute = (f"max(ceil_div(tiles{rows} * {s}, {SMS}) * 100, {FLOOR[rows]}) * {rows} "
               f"* (ceil_div(steps, {s}) + {WG_STEPS}) * {ROW_STEP_NS[rows]} // 10000")
    split = (f"({SPLIT_NS} + ({s} + 1) * batch * M * N * 4 // {SPLIT_BYTES_PER_NS} "
             f"if {s} > 1 else 0)")
    return f"{compute} + {split}"


def best_split(rows: int) -> str:
    """cost * 32 + slices - 1 of the cheapest split of the tile with `rows` rows."""
    return f"min([({tile_cost(rows, '(j + 1)')}) * 32 + j for j in range(max_split)])"


SPLIT_LETS = {
    "tiles_n": f"ceil_div(N, {TILE})",
    **{f"tiles{r}": f"ceil_div(M, {r}) * tiles_n * batch" for r in TILE_ROWS},
    "small_tiles": f"ceil_div(M, {SMALL_TILE}) * ceil_div(N, {SMALL_TILE}) * batch",
    "small": f"not gemv and not aligned and tiles128 < {SPLIT_BELOW} "
             f"and small_tiles >= {SPLIT_BELOW} and M <= {SMALL_MAX_ROWS}",
    "steps": f"ceil_div(K, {K_STEP})",
    # slices: each of MIN_SLICE_STEPS steps or more
    "max_split": f"max(1, min(steps // {MIN_SLICE_STEPS}, {MAX_SPLIT}))",
    **{f"best{r}": best_split(r) for r in TILE_ROWS},
    # the vec4 tiles' cheapest (the first of equals: more rows per workgroup); the scalar
    # route has the 128 tile alone
    "tile_pick": "min([" + ", ".join(f"best{r} // 32 * 4 + {i}" for i, r in enumerate(TILE_ROWS))
                 + "]) % 4 if aligned else 0",
    "tile_m": " else ".join(f"{r} if tile_pick == {i}" for i, r in enumerate(TILE_ROWS[:-1]))
              + f" else {TILE_ROWS[-1]}",
    # gemv_nn (128 columns per workgroup): slices to reach about two rounds of workgroups
    "gemv_split": f"min(ceil_div({2 * SMS}, max(tiles128, 1)), max_split) "
                  f"if tiles128 < {SMS} else 1",
    "small_split": f"min(ceil_div({SMALL_SPLIT_TARGET}, max(small_tiles, 1)), max_split) "
                   f"if small_tiles < {SMALL_SPLIT_BELOW} else 1",
    "tile_split": " else ".join(f"best{r} % 32 + 1 if tile_m == {r}" for r in TILE_ROWS[:-1])
                  + f" else best{TILE_ROWS[-1]} % 32 + 1",
    "split": "gemv_split if gemv else (small_split if small else tile_split)",
    "k_chunk": f"ceil_div(steps, split) * {K_STEP}",
}


def gemm_op(name: str, target: str, args: list, let: dict, guards: list, shape: str,
            a: str, b: str, bias: str, b_is_nk: bool, epilogue: dict, cases: list[Case]) -> Op:
    """One member of the family. `a`, `b`, `bias` name the arguments bound as the GEMM's
    operands (an op without a bias binds one of its operands there, never read:
    has_bias is 0). `let` must define M, N, K, batch, aligned, gemv and the batch strides."""
    params = Params({
        "M": u32("M"), "N": u32("N"), "K": u32("K"), "batch": u32("batch"),
        "a_batch_stride": u32("a_batch_stride"), "b_batch_stride": u32("b_batch_stride"),
        "k_chunk": u32("k_chunk"), "split": u32("split"),
        **epilogue,
    })
    # linear's gemv_rows is a dispatch of its own (it never splits K); gemv_nn is a route
    # beside gemm_vec4 (same bindings and split), so --force can pick either
    tiled_when = "not gemv and " if b_is_nk else ""
    # the vec4 routes read linear's weight packed to [K, N] (wpack), the scalar ones in place
    packed_b = "wpack" if b_is_nk else b
    nn = {"B_IS_NK": "False"}  # B as [K, N]: mm's, or linear's packed weight
    as_given = {"B_IS_NK": str(b_is_nk)}  # B as the op passes it
    tile_grid = Tiles(x="N", y="M", tile=(TILE, TILE), z="batch * split")
    gemv_grid = Tiles(x="N", y="M", tile=(GEMV_NN_COLS, GEMV_NN_ROWS), z="batch * split")
    gemv_nn = [] if b_is_nk else [Route(GEMV_NN, gemv_grid, when="gemv", overrides=nn)]
    small_grid = Tiles(x="N", y="M", tile=(SMALL_TILE, SMALL_TILE), z="batch * split")
    # the vec4 tiles of fewer rows (the 128 tile is the dispatch's last route)
    narrow = [Route(TILE_KERNELS[r], Tiles(x="N", y="M", tile=(TILE, r), z="batch * split"),
                    when=f"tile_m == {r}", overrides=nn) for r in TILE_ROWS if r != TILE]
    small_scalar = [Route(GEMM_SMALL_SCALAR, small_grid, when="small", overrides=as_given)]

    def tiled(kernel: Kernel, when: str, b: str, view: str, helpers: list[str],
              first: list[Route], overrides: dict) -> Dispatch:
        routes = [*first, Route(kernel, tile_grid, overrides=overrides)]
        return Dispatch(
            name=kernel.name,
            when=tiled_when + when,
            params=params,
            helpers=["gemm_epilogue.wgsl", "gemm_store.wgsl", *helpers],
            bindings=[Bind("a", a, view=view), Bind("b", b, view=view),
                      Bind("bias", bias, view="scalar"), Bind("partial", "partial", write=True),
                      Bind("output", "out", write=True, view="scalar")],
            routes=[*half_routes(routes, a), *routes],
        )

    split_sum = Route(SPLIT_SUM, Elementwise("out.numel"))
    dispatches = [
        tiled(GEMM_VEC4, "aligned", packed_b, "vec4", ["gemm_loads_vec4.wgsl"],
              gemv_nn + narrow, nn),
        tiled(GEMM_SCALAR, "not aligned", b, "scalar", ["gemm_loads_scalar.wgsl"],
              small_scalar, as_given),
        Dispatch(
            name="split_sum",
            when=tiled_when + "split > 1",
            params=params,
            helpers=["gemm_epilogue.wgsl"],
            bindings=[Bind("partial", "partial"), Bind("bias", bias, view="scalar"),
                      Bind("output", "out", write=True, view="scalar")],
            routes=[*half_routes([split_sum], a), split_sum],
        ),
    ]
    scratch = [Scratch("partial", "float32",
                       f"[split * batch * M * N if {tiled_when}split > 1 "
                       "else 0]")]
    if b_is_nk:
        pack = Route(PACK, Elementwise("K * N // 4"))
        dispatches.insert(0, Dispatch(
            name="pack",
            when="not gemv and aligned",
            params={"K": u32("K"), "N": u32("N")},
            bindings=[Bind("weight", b, view="scalar"),
                      Bind("wpack", "wpack", write=True, view="vec4")],
            routes=[*half_routes([pack], a), pack],
        ))
        # the packed weight in the weight's own dtype: float16 fills half the float32 words
        scratch.append(Scratch("wpack", "float32", "[(ceil_div(K * N, 2) if weight.dtype == "
                                                   "'float16' else K * N) if not gemv and "
                                                   "aligned else 0]"))
        gemv = [Route(GEMV_SUBGROUP, Elementwise("N * 64")), Route(GEMV, Elementwise("N * 64"))]
        dispatches.insert(0, Dispatch(
            name="gemv",
            when="gemv",
            params=params,
            helpers=["gemm_epilogue.wgsl", "gemv_rows_dot.wgsl"],
            bindings=[Bind("a", a, view="vec4"), Bind("b", b, view="vec4"),
                      Bind("bias", bias, view="scalar"),
                      Bind("output", "out", write=True, view="scalar")],
            routes=[*half_routes(gemv, a), *gemv],
        ))
    return Op(
        name=name,
        targets=[target],
        args=[*args, Output("out", FLOATS)],
        let={**let, **SPLIT_LETS},
        guards=guards,
        shapes={"out": shape},
        flops="2 * batch * M * N * K",
        resize="dynamic",
        scratch=scratch,
        dispatches=dispatches,
        cases=cases,
    )


FLOATS = (F32, F16)
# float16 operands: the kernels' float16 twins (f32 accumulators, one rounding per output)
NO_BIAS = {"has_bias": u32("0"), "bias_stride_m": u32("0"), "bias_stride_n": u32("0"),
           "alpha": f32("1.0"), "beta": f32("0.0")}
NAN, INF = float("nan"), float("inf")
GEMV_NN_WHEN = f"M <= {GEMV_MAX_ROWS} and aligned"


def inner_dim_guard(b: str, got: str, k_index: int) -> Guard:
    return Guard(f"{b}.dims[{k_index}] == K", b, "does not match the inner dim", got=got,
                 expected="dims[%d] == {K}" % k_index)


MM = gemm_op(
    "mm", "aten.mm.default",
    args=[Tensor("self", FLOATS, rank=2), Tensor("mat2", FLOATS, rank=2)],
    let={"M": "self.dims[0]", "K": "self.dims[1]", "N": "mat2.dims[1]", "batch": "1",
         "a_batch_stride": "0", "b_batch_stride": "0", "aligned": "K % 4 == 0 and N % 4 == 0",
         "gemv": GEMV_NN_WHEN},
    guards=[inner_dim_guard("mat2", "mat2.dims", 0), same_dtype("self", ["mat2"])],
    shape="[M, N]", a="self", b="mat2", bias="self", b_is_nk=False, epilogue=NO_BIAS,
    cases=[
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
    ] + mm_cases(),
)

BMM = gemm_op(
    "bmm", "aten.bmm.default",
    args=[Tensor("self", FLOATS, rank=3), Tensor("mat2", FLOATS, rank=3)],
    let={"batch": "self.dims[0]", "M": "self.dims[1]", "K": "self.dims[2]", "N": "mat2.dims[2]",
         "a_batch_stride": "M * K", "b_batch_stride": "K * N",
         "aligned": "K % 4 == 0 and N % 4 == 0", "gemv": GEMV_NN_WHEN},
    guards=[Guard("mat2.dims[0] == batch", "mat2", "does not match the batch", got="mat2.dims",
                  expected="dims[0] == {batch}"),
            inner_dim_guard("mat2", "mat2.dims", 1), same_dtype("self", ["mat2"])],
    shape="[batch, M, N]", a="self", b="mat2", bias="self", b_is_nk=False, epilogue=NO_BIAS,
    cases=[
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
    ] + bmm_cases(),
)

ADDMM = gemm_op(
    "addmm", "aten.addmm.default",
    args=[Tensor("self", FLOATS, rank=(0, 2)), Tensor("mat1", FLOATS, rank=2),
          Tensor("mat2", FLOATS, rank=2),
          Scalar("beta", default=1), Scalar("alpha", default=1)],
    let={"M": "mat1.dims[0]", "K": "mat1.dims[1]", "N": "mat2.dims[1]", "batch": "1",
         "a_batch_stride": "0", "b_batch_stride": "0", "aligned": "K % 4 == 0 and N % 4 == 0",
         "gemv": GEMV_NN_WHEN,
         "bias_dims": "right_align(self.dims, 2, 1)"},
    guards=[inner_dim_guard("mat2", "mat2.dims", 0),
            Guard("(bias_dims[0] == 1 or bias_dims[0] == M) and (bias_dims[1] == 1 or bias_dims[1] == N)", "self",
                  "does not broadcast to the output", got="self.dims",
                  expected="dims broadcasting to [{M}, {N}]"),
            same_dtype("mat1", ["mat2", "self"])],
    shape="[M, N]", a="mat1", b="mat2", bias="self", b_is_nk=False,
    epilogue={"has_bias": u32("beta != 0"),  # beta == 0 ignores self, NaN included (torch)
              "bias_stride_m": u32("bias_dims[1] if bias_dims[0] > 1 else 0"),
              "bias_stride_n": u32("1 if bias_dims[1] > 1 else 0"),
              "alpha": f32("alpha"), "beta": f32("beta")},
    cases=[
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
    ] + addmm_cases(),
)

LINEAR = gemm_op(
    "linear", "aten.linear.default",
    args=[Tensor("input", FLOATS, rank=(1, 8)), Tensor("weight", FLOATS, rank=2),
          Tensor("bias", FLOATS, rank=1, optional=True)],
    let={"K": "input.dims[-1]", "N": "weight.dims[0]", "M": "input.numel // max(K, 1)",
         "batch": "1", "a_batch_stride": "0", "b_batch_stride": "0",
         "aligned": "K % 4 == 0 and N % 4 == 0", "gemv": f"M <= {GEMV_MAX_ROWS} and K % 4 == 0"},
    guards=[
        Guard("weight.dims[1] == K", "weight", "does not match the input's last dim",
              got="weight.dims", expected="[N, {K}]"),
        Guard("not bias.present or bias.numel == N", "bias",
              "does not hold one value per output feature", got="bias.dims", expected="[{N}]"),
        same_dtype("input", ["weight"], optional=["bias"]),
    ],
    shape="input.dims[:-1] + [N]", a="input", b="weight", bias="bias", b_is_nk=True,
    epilogue={"has_bias": u32("bias.present"), "bias_stride_m": u32("0"),
              "bias_stride_n": u32("1"), "alpha": f32("1.0"), "beta": f32("1.0")},
    cases=[
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
    ] + linear_cases(),
)

OPS = [MM, BMM, ADDMM, LINEAR]
