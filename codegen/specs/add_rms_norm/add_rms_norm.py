"""add_rms_norm (webgpu.add_rms_norm, codegen/graph/fused_ops.py): a decoder layer's
residual add and the RMS norm after it in one dispatch: sum = x + residual (later nodes
read it: the next residual add) and normed = rms_norm(sum) * weight as et_vk.rms_norm
computes it. The graph builder (cpp_runtime/executorch/vk_fusion.cpp) runs it in place
of add(x, residual) -> sum; rms_norm(sum) -> normed where nothing between them reads
sum. Its arithmetic is the unfused pair's: the norm reads the stored sum.

One 256-thread workgroup per row, as rms_norm_rows (../rms_norm/rms_norm.py).
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Double, Guard, Kernel, Op, Output,
                              Outputs, Route, Rows, Tensor, f32, half_routes, same_dtype, u32)
from codegen.graph.inputs import randn, tensor

# Without runtime checks, as rms_norm_rows: rows below num_rows, columns below N, the tree
# reduction's partial[lid + stride] below 256.
ADD_RMS = Kernel("add_rms_norm_rows", workgroup=(256, 1, 1), runtime_checks=False,
                 helpers=("../common/each_row.wgsl", "../common/workgroup_reduce.wgsl"))
ROUTE = Route(ADD_RMS, Rows("x.numel // N"))
FLOATS = (F32, F16)


def _args(*dims, dtype="float32"):
    """(x, residual, weight, eps)."""
    return (randn(*dims, dtype=dtype), randn(*dims, dtype=dtype), randn(dims[-1], dtype=dtype),
            1e-5)


OPS = [Op(
    name="add_rms_norm",
    targets=["webgpu.add_rms_norm.default"],
    args=[Tensor("x", FLOATS, rank=(1, 4)), Tensor("residual", FLOATS, rank=(1, 4)),
          Tensor("weight", FLOATS, rank=1), Double("eps"),
          Outputs("out", (Output("sum", FLOATS, rank=(1, 4)),
                          Output("normed", FLOATS, rank=(1, 4))))],
    let={"N": "x.dims[-1]"},
    guards=[
        Guard("residual.dims == x.dims", "residual", "does not have x's shape",
              got="residual.dims", expected="{x.dims}"),
        Guard("weight.dims[0] == N", "weight", "does not match the normalized dim",
              got="weight.dims", expected="[{N}]"),
        Guard("N > 0", "x", "has an empty last dim", got="x.dims", expected="a non-zero last dim"),
        same_dtype("x", ["residual", "weight"]),
    ],
    shapes={"sum": "x.dims", "normed": "x.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"N": u32("N"), "num_rows": u32("x.numel // N"), "eps": f32("eps")},
        bindings=[Bind("x", "x", view="scalar"), Bind("residual", "residual", view="scalar"),
                  Bind("sum", "sum", write=True, view="scalar"),
                  Bind("weight", "weight", view="scalar"),
                  Bind("output", "normed", write=True, view="scalar")],
        routes=[*half_routes([ROUTE], "x"), ROUTE],
    )],
    cases=[
        Case("decode", _args(1, 1, 256), route="add_rms_norm_rows"),
        Case("prefill_odd_width", _args(1, 5, 100)),
        Case("resize_decode", _args(1, 8, 64), resize={"x": (1, 1, 64), "residual": (1, 1, 64)}),
        Case("f16", _args(1, 3, 64, dtype="float16"), route="add_rms_norm_rows_f16"),
        # a Llama-3.2-1B decode row (8 columns a thread), rows of 9 or 10 columns a thread
        Case("decode_2048", _args(1, 1, 2048)),
        Case("wide_rows", _args(2, 2348)),
        Case("f16_wide_rows", _args(2, 2348, dtype="float16")),
        # a float16 sum near the largest half (65504): its square overflows half, not the
        # float32 sum of squares; the sum is rounded to half before the norm reads it
        Case("f16_large_sum", (tensor([[30000.0, 1.0, -2.0, 3.0]], dtype="float16"),
                               tensor([[30000.0, 1.0, 2.0, 0.5]], dtype="float16"),
                               tensor([1.0, 0.5, 2.0, 1.0], dtype="float16"), 1e-6)),
        Case("residual_shape", _args(2, 8)[:1] + (randn(2, 4),) + _args(2, 8)[2:],
             raises="residual does not have x's shape (got [2, 4], expected [2, 8])"),
        Case("weight_width", _args(2, 8)[:2] + (randn(4), 1e-5),
             raises="weight does not match the normalized dim (got [4], expected [8])"),
        Case("empty_last_dim", (randn(2, 0), randn(2, 0), randn(0), 1e-6),
             raises="x has an empty last dim (got [2, 0], expected a non-zero last dim)"),
        Case("rejects_mixed_floats", _args(2, 8)[:2] + (randn(8, dtype="float16"), 1e-5),
             raises="x does not share its dtype with residual and weight (got float32, "
                    "expected the dtype of residual and weight)"),
    ],
)]
