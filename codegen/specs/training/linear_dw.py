"""et_vk.linear_dW: the weight gradient of a linear layer, d_out^T @ x over every row
(ExecuTorch's Vulkan custom op for on-device training, e.g. LoRA adapters or the
straight-through weight gradient of a frozen 4-bit base):

    out[n, k] = sum over rows r of d_out[r, n] * x[r, k]

d_out [..., N] and x [..., K] with the same number of rows (their leading dims
flattened), out float32 [N, K]: what autograd gives as the weight's grad of
F.linear(x, W) for the upstream gradient d_out (tests/test_training.py). One workgroup
per 16 x 16 tile of out, the rows walked 16 at a time through workgroup memory.
"""

from codegen.language import (F32, Bind, Case, Dispatch, Guard, Kernel, Op, Output, Route, Tensor,
                              Tiles, u32)
from codegen.graph.inputs import randn

TILE = 16
DW = Kernel("linear_dw", workgroup=(TILE, TILE, 1))
TOL = {"atol": 1e-5, "rtol": 1e-5}

OPS = [Op(
    name="linear_dw",
    targets=["et_vk.linear_dW.default"],
    args=[Tensor("d_out", (F32,), rank=(1, 4)), Tensor("x", (F32,), rank=(1, 4)),
          Output("out", (F32,), rank=2)],
    let={"N": "d_out.dims[-1]", "K": "x.dims[-1]",
         "R": "d_out.numel // max(d_out.dims[-1], 1)"},
    guards=[Guard("N > 0 and K > 0", "d_out", "or x has no features", got="[N, K]",
                  expected="at least one output and one input feature"),
            Guard("x.numel // K == R", "x", "does not have d_out's rows",
                  got="x.dims", expected="{R} rows of {K} features")],
    shapes={"out": "[N, K]"},
    resize="static",
    flops="2 * N * K * R",
    dispatches=[Dispatch(
        params={"N": u32("N"), "K": u32("K"), "R": u32("R")},
        bindings=[Bind("d_out", "d_out"), Bind("x", "x"), Bind("output", "out", write=True)],
        routes=[Route(DW, Tiles(x="K", y="N", tile=(TILE, TILE)))])],
    cases=[
        Case("lora_rank8", (randn(2, 9, 8), randn(2, 9, 24)), route="linear_dw", **TOL),
        Case("prime_tiles", (randn(37, 17), randn(37, 19)), **TOL),
        Case("one_row", (randn(1, 5), randn(1, 33)), **TOL),
        Case("rank1", (randn(12), randn(7)), **TOL),
        Case("rejects_rows", (randn(3, 4), randn(5, 6)),
             raises="x does not have d_out's rows (got [5, 6], expected 3 rows of 6 "
                    "features)"),
        Case("rejects_empty", (randn(3, 0), randn(3, 6)),
             raises="d_out or x has no features (got [0, 6], expected at least one output "
                    "and one input feature)"),
    ],
)]
