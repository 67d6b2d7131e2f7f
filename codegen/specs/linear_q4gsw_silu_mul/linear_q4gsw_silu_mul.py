"""linear_q4gsw_silu_mul (webgpu.linear_q4gsw_silu_mul, codegen/graph/fused_ops.py): a
Llama MLP's gated product silu(x @ gate^T) * (x @ up^T) with 4-bit weights, as one
operator. The graph builder (cpp_runtime/executorch/vk_fusion.cpp) runs it in place of
the two bias-free et_vk.linear_q4gsw calls on one input and the silu_mul of their
results (the partitioner's sigmoid, mul, mul, already fused).

- A decode step (one input row, K % 32 == 0) runs both GEMVs and the gate in one
  dispatch (q4gsw_gemv_silu_mul.wgsl): three dispatches (gate GEMV, up GEMV, silu_mul)
  become one, and each input quad a thread loads serves two rows of each matrix. With
  `subgroups` its _subgroup variant sums the k-lanes by shuffles.
- Otherwise (a prefill) linear_q4gsw's tiled kernel writes the gate projection into the
  output, then its twin with q4gsw_store_silu_mul.wgsl's stores writes silu(gate) * up
  over it: two dispatches, no intermediate tensor.
float16 activations and scales (a force_fp16 LLM) run the kernels' float16 twins; the
gate is then rounded to half before the product, as the unfused graph rounds it.
"""

from codegen.language import (F16, F32, U8, Bind, Case, Dispatch, Elementwise, Guard, Int, Kernel,
                              Op, Output, Route, Tensor, half_routes, same_dtype, u32)
from codegen.graph.inputs import rand, randint, randn
from codegen.specs.linear_q4gsw.linear_q4gsw import (GROUP_GUARD, TILED, bias_free_tiled,
                                                     matrix_shape_cases, partial_scratch,
                                                     scales_guard, split_lets, subgroup_rows,
                                                     weights_guard)

FLOATS = (F32, F16)
ROWS_PER_THREAD = 2  # q4gsw_gemv_silu_mul.wgsl: output features per thread (of each matrix)
# Without runtime checks, as linear_q4gsw's GEMVs: rows below N (past it, row N - 1),
# quads below K / 32, the scales [K / group_size, N] by the guards, workgroup and private
# arrays by the thread and loop indices.
GEMV = Kernel("q4gsw_gemv_silu_mul", runtime_checks=False,
              consts={"ROWS_PER_THREAD": f"{ROWS_PER_THREAD}u",
                      "VALUES": f"{2 * ROWS_PER_THREAD}u"},
              helpers=("../linear_q4gsw/q4gsw_input_vec4.wgsl",
                       "../linear_q4gsw/q4gsw_nibbles.wgsl", "../linear_q4gsw/q4gsw_rows.wgsl",
                       "../linear_q4gsw/q4gsw_rows_reduce.wgsl", "silu.wgsl"))
GEMV_SUBGROUP = subgroup_rows(GEMV)
GEMV_ROUTES = [Route(k, Elementwise(f"ceil_div(N, {8 * ROWS_PER_THREAD}) * 256"))
               for k in (GEMV_SUBGROUP, GEMV)]
# the tiled kernel with stores that multiply silu(the gate it finds in the output)
TILED_UP = TILED.variant("q4gsw_gemm_silu_mul", helpers=(
    "q4gsw_input_vec4.wgsl", "q4gsw_nibbles.wgsl", "../linear_q4gsw_silu_mul/silu.wgsl",
    "../linear_q4gsw_silu_mul/q4gsw_store_silu_mul.wgsl", "../matmul/gemm_staged_f32.wgsl",
    "../matmul/gemm_tile.wgsl", "../matmul/gemm_store.wgsl"))


def _args(n=48, k=64, group=32, m=(1, 1), dtype="float32"):
    """(input, w_gate, s_gate, w_up, s_up, group_size)."""
    out = [randn(*m, k, dtype=dtype)]
    for _ in range(2):
        out += [randint(0, 256, n, -(-k // 8) * 4, dtype="uint8"),
                rand(k // group, n, low=-0.2, high=0.2, dtype=dtype)]
    return (*out, group)


OPS = [Op(
    name="linear_q4gsw_silu_mul",
    targets=["webgpu.linear_q4gsw_silu_mul.default"],
    args=[Tensor("self", FLOATS, rank=(1, 8)), Tensor("w_gate", dtypes=(U8,), rank=2),
          Tensor("s_gate", FLOATS, rank=2), Tensor("w_up", dtypes=(U8,), rank=2),
          Tensor("s_up", FLOATS, rank=2), Int("group_size"), Output("out", FLOATS)],
    let={"K": "self.dims[-1]", "M": "self.numel // max(K, 1)", "N": "w_gate.dims[0]",
         "gemv": "M == 1 and K % 32 == 0", **split_lets("N", "_gate")},
    guards=[
        GROUP_GUARD,
        Guard("w_up.dims[0] == N", "w_up", "does not have the gate weights' rows",
              got="w_up.dims[0]", expected="{N}"),
        weights_guard("w_gate"), scales_guard("s_gate", "N"),
        weights_guard("w_up"), scales_guard("s_up", "N"),
        same_dtype("self", ["s_gate", "s_up", "out"]),
    ],
    shapes={"out": "self.dims[:-1] + [N]"},
    flops="4 * M * N * K",
    resize="dynamic",
    scratch=[partial_scratch([("_gate", "N")])],
    dispatches=[
        Dispatch(name="gemv", active="gemv",
                 params={"K": u32("K"), "N": u32("N"), "group_size": u32("group_size")},
                 bindings=[Bind("a", "self", view="vec4"),
                           Bind("w_gate", "w_gate", elem="vec4<u32>"),
                           Bind("scales_gate", "s_gate", view="scalar"),
                           Bind("w_up", "w_up", elem="vec4<u32>"),
                           Bind("scales_up", "s_up", view="scalar"),
                           Bind("output", "out", write=True, view="scalar")],
                 routes=[*half_routes(GEMV_ROUTES, "self"), *GEMV_ROUTES]),
        # the gate may split K (its sums are stored as they are), the up tile's silu
        # stores may not
        *bias_free_tiled("gate", TILED, "w_gate", "s_gate", "out", "N", split=True),
        *bias_free_tiled("up", TILED_UP, "w_up", "s_up", "out", "N"),
    ],
    cases=[
        # a decode step: 3 workgroups of 16 rows
        Case("decode", _args(), route="q4gsw_gemv_silu_mul_subgroup"),
        # rows that end inside a workgroup, K of three quads per lane set, group 64
        Case("decode_ragged", _args(n=37, k=192, group=64), route="q4gsw_gemv_silu_mul_subgroup"),
        # K of 66 quads: each row's threads take 2 or 3 quads (the decode GEMVs' 64);
        # outputs near 10 from two 2112-term float32 sums multiplied (their rounding, 6e-4)
        Case("decode_long_rows", _args(n=24, k=2112), route="q4gsw_gemv_silu_mul_subgroup",
             atol=2e-3),
        # group 8: every word of a quad has its own scale
        Case("decode_small_groups", _args(n=24, group=8), route="q4gsw_gemv_silu_mul_subgroup"),
        # the gate tile, then the up tile's silu stores (the route named: the latter's)
        Case("prefill", _args(n=70, m=(1, 9)), route="q4gsw_gemm_silu_mul"),
        # K of 100 steps: the gate in three slices, summed, then the up tile unsplit;
        # products of two 800-term float32 sums (their rounding, 2e-4)
        Case("prefill_split_k", _args(n=40, k=800, m=(1, 9)), route="q4gsw_split_sum",
             atol=1e-3),
        Case("f16_prefill_split_k", _args(n=40, k=800, m=(1, 9), dtype="float16"),
             route="q4gsw_split_sum_f16"),
        Case("prefill_then_decode", _args(m=(1, 7)), resize={"self": (1, 1, 64)},
             route="q4gsw_gemv_silu_mul_subgroup"),
        Case("f16_decode", _args(dtype="float16"), route="q4gsw_gemv_silu_mul_subgroup_f16"),
        Case("f16_prefill", _args(m=(1, 9), dtype="float16"), route="q4gsw_gemm_silu_mul_f16"),
        # the same prefills, named by their gate tile's route
        Case("prefill_gate", _args(n=40, m=(1, 5)), route="q4gsw_gemm"),
        Case("f16_prefill_gate", _args(m=(1, 5), dtype="float16"), route="q4gsw_gemm_f16"),
        *matrix_shape_cases(_args(), [("gate", 48), ("up", 48)]),
        Case("rejects_mixed_floats", _args(dtype="float16")[:2] +
             (rand(2, 48, low=-0.2, high=0.2),) + _args(dtype="float16")[3:],
             raises="self does not share its dtype with s_gate, s_up and out (got float16, "
                    "expected the dtype of s_gate, s_up and out)"),
        Case("up_rows", _args()[:3] + (randint(0, 256, 40, 32, dtype="uint8"),
                                       rand(2, 40, low=-0.2, high=0.2), 32),
             raises="w_up does not have the gate weights' rows (got 40, expected 48)"),
        Case("group_not_words", _args()[:5] + (12,),
             raises="group_size does not split K into groups of whole packed words (got 12, "
                    "expected a multiple of 8 dividing 64)"),
    ],
)]
