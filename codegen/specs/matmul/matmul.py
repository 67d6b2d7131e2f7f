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
from codegen.specs.matmul._cases import ADDMM_CASES, BMM_CASES, LINEAR_CASES, MM_CASES
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
            bindings=[Bind("a", a, view=view, raw=view == "vec4"),
                      Bind("b", b, view=view, raw=view == "vec4"),
                      Bind("bias", bias, view="scalar"), Bind("partial", "partial", write=True),
                      Bind("output", "out", write=True, view="scalar")],
            routes=[*half_routes(routes, a), *routes],
        )

    split_sum = Route(SPLIT_SUM, Elementwise("out.numel"))
    dispatches = [
        tiled(GEMM_VEC4, "aligned", packed_b, "vec4", ["gemm_loads_vec4.wgsl"],
              gemv_nn + narrow, nn),
        tiled(GEMM_SCALAR, "not aligned", b, "scalar",
              ["gemm_loads_scalar.wgsl", "gemm_staged_f32.wgsl"],
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
    cases=MM_CASES + mm_cases(),
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
    cases=BMM_CASES + bmm_cases(),
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
    cases=ADDMM_CASES + addmm_cases(),
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
    cases=LINEAR_CASES + linear_cases(),
)

OPS = [MM, BMM, ADDMM, LINEAR]
