"""linear_q4gsw_qkv (webgpu.linear_q4gsw_qkv, codegen/graph/fused_ops.py): the q, k and v
projections of an attention block, three linear_q4gsw calls on one input without bias,
as one operator. The graph builder (cpp_runtime/executorch/vk_fusion.cpp) runs it at the
first projection's place.

- A decode step (one input row, K % 32 == 0) runs the three GEMVs in one dispatch
  (q4gsw_gemv_qkv.wgsl): one dispatch's fixed cost instead of three, the k and v
  projections (a few hundred rows each) having been mostly that cost.
- Otherwise (a prefill) each projection runs linear_q4gsw's tiled kernel (q4gsw_gemm).
float16 activations and scales (a force_fp16 LLM) run the kernels' float16 twins.
"""

from codegen.language import (F16, F32, U8, Bind, Case, Dispatch, Elementwise, Int, Kernel, Op,
                              Output, Outputs, Route, Tensor, half_routes, same_dtype, u32)
from codegen.graph.inputs import rand, randint, randn
from codegen.specs.linear_q4gsw.linear_q4gsw import (GROUP_GUARD, TILED, bias_free_tiled,
                                                     matrix_shape_cases, partial_scratch,
                                                     scales_guard, split_lets, subgroup_rows,
                                                     weights_guard)

FLOATS = (F32, F16)
MATRICES = ("q", "k", "v")
ROWS_PER_THREAD = 2  # q4gsw_gemv_qkv.wgsl: rows of its matrix per thread
ROWS_PER_WORKGROUP = 8 * ROWS_PER_THREAD
# Without runtime checks, as linear_q4gsw's GEMVs: rows below their matrix's N (past it,
# row N - 1), quads below K / 32, the scales [K / group_size, N] by the guards, workgroup
# and private arrays by the thread and loop indices.
QKV = Kernel("q4gsw_gemv_qkv", runtime_checks=False,
             consts={"ROWS_PER_THREAD": f"{ROWS_PER_THREAD}u", "VALUES": f"{ROWS_PER_THREAD}u"},
             helpers=("../linear_q4gsw/q4gsw_input_vec4.wgsl",
                      "../linear_q4gsw/q4gsw_nibbles.wgsl", "../linear_q4gsw/q4gsw_rows.wgsl",
                      "../linear_q4gsw/q4gsw_rows_reduce.wgsl"))
QKV_SUBGROUP = subgroup_rows(QKV)


def _args(n=(48, 16, 16), k=64, group=32, m=(1, 1), dtype="float32"):
    """(input, w_q, s_q, w_k, s_k, w_v, s_v, group_size)."""
    out = [randn(*m, k, dtype=dtype)]
    for rows in n:
        out += [randint(0, 256, rows, -(-k // 8) * 4, dtype="uint8"),
                rand(k // group, rows, low=-0.2, high=0.2, dtype=dtype)]
    return (*out, group)


QKV_ROUTES = [Route(k, Elementwise(
    f"(ceil_div(w_q.dims[0], {ROWS_PER_WORKGROUP}) + ceil_div(w_k.dims[0], "
    f"{ROWS_PER_WORKGROUP}) + ceil_div(w_v.dims[0], {ROWS_PER_WORKGROUP})) * 256"))
    for k in (QKV_SUBGROUP, QKV)]

OPS = [Op(
    name="linear_q4gsw_qkv",
    targets=["webgpu.linear_q4gsw_qkv.default"],
    args=[Tensor("self", FLOATS, rank=(1, 8)),
          *[t for x in MATRICES for t in (Tensor(f"w_{x}", dtypes=(U8,), rank=2),
                                          Tensor(f"s_{x}", FLOATS, rank=2))],
          Int("group_size"),
          Outputs("out", tuple(Output(x, FLOATS) for x in MATRICES))],
    let={"K": "self.dims[-1]", "M": "self.numel // max(K, 1)",
         "gemv": "M == 1 and K % 32 == 0",
         **{k: v for x in MATRICES for k, v in split_lets(f"w_{x}.dims[0]", f"_{x}").items()}},
    guards=[
        GROUP_GUARD,
        *[g for x in MATRICES for g in (weights_guard(f"w_{x}"),
                                        scales_guard(f"s_{x}", f"w_{x}.dims[0]"))],
        same_dtype("self", ["s_q", "s_k", "s_v"]),
    ],
    shapes={x: f"self.dims[:-1] + [w_{x}.dims[0]]" for x in MATRICES},
    flops="2 * M * K * (w_q.dims[0] + w_k.dims[0] + w_v.dims[0])",
    resize="dynamic",
    scratch=[partial_scratch([(f"_{x}", f"w_{x}.dims[0]") for x in MATRICES])],
    dispatches=[
        Dispatch(name="gemv", active="gemv",
                 params={"K": u32("K"), "N_q": u32("w_q.dims[0]"), "N_k": u32("w_k.dims[0]"),
                         "N_v": u32("w_v.dims[0]"), "group_size": u32("group_size")},
                 bindings=[Bind("a", "self", view="vec4"),
                           *[b for x in MATRICES for b in (
                               Bind(f"w_{x}", f"w_{x}", elem="vec4<u32>"),
                               Bind(f"scales_{x}", f"s_{x}", view="scalar"))],
                           *[Bind(f"out_{x}", x, write=True, view="scalar") for x in MATRICES]],
                 routes=[*half_routes(QKV_ROUTES, "self"), *QKV_ROUTES]),
        *[d for x in MATRICES
          for d in bias_free_tiled(x, TILED, f"w_{x}", f"s_{x}", x, f"w_{x}.dims[0]", split=True)],
    ],
    cases=[
        # a decode step: 3 + 1 + 1 workgroups, the last of each matrix's rows whole
        Case("decode", _args(), route="q4gsw_gemv_qkv_subgroup"),
        # rows that end inside a workgroup, K of three quads per lane set, group 64
        Case("decode_ragged", _args(n=(37, 13, 5), k=192, group=64),
             route="q4gsw_gemv_qkv_subgroup"),
        # K of 66 quads: each row's threads take 2 or 3 quads (the decode GEMVs' 64)
        Case("decode_long_rows", _args(n=(24, 8, 8), k=2112), route="q4gsw_gemv_qkv_subgroup"),
        # group 8: every word of a quad has its own scale
        Case("decode_small_groups", _args(n=(24, 8, 8), group=8), route="q4gsw_gemv_qkv_subgroup"),
        Case("prefill", _args(m=(1, 9)), route="q4gsw_gemm"),
        # K of 100 steps: each projection in three slices, summed
        Case("prefill_split_k", _args(k=800, m=(1, 9)), route="q4gsw_split_sum"),
        Case("prefill_then_decode", _args(m=(1, 7)), resize={"self": (1, 1, 64)},
             route="q4gsw_gemv_qkv_subgroup"),
        Case("f16_decode", _args(dtype="float16"), route="q4gsw_gemv_qkv_subgroup_f16"),
        Case("f16_prefill", _args(m=(1, 9), dtype="float16"), route="q4gsw_gemm_f16"),
        Case("f16_prefill_split_k", _args(k=800, m=(1, 9), dtype="float16"),
             route="q4gsw_split_sum_f16"),
        *matrix_shape_cases(_args(), [("q", 48), ("k", 16), ("v", 16)]),
        Case("rejects_mixed_floats", _args(dtype="float16")[:2] +
             (rand(2, 48, low=-0.2, high=0.2),) + _args(dtype="float16")[3:],
             raises="self does not share its dtype with s_q, s_k and s_v (got float16, "
                    "expected the dtype of s_q, s_k and s_v)"),
        Case("group_not_words", _args()[:7] + (12,),
             raises="group_size does not split K into groups of whole packed words (got 12, "
                    "expected a multiple of 8 dividing 64)"),
    ],
)]
