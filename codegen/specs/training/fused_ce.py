"""et_vk.fused_ce: cross-entropy loss and its gradient in one pass, for on-device training
(ExecuTorch's Vulkan custom op; semantics of its reference in custom_ops_lib.py):

    loss    = sum over rows with label >= 0 of (logsumexp(logits[r]) - logits[r, label]) / n_valid
    dlogits = (softmax(logits[r]) - onehot(label)) / n_valid on those rows, 0 on the others

logits float32 [N, C], labels int [N] (int64 as the graph holds it, int32; a negative
label marks an ignored row, e.g. -100), n_valid the caller's count of labelled rows.
With n_valid = that count, loss is F.cross_entropy(..., ignore_index=<negative>) and
dlogits its gradient (tests/test_training.py). A label >= C (torch raises; a kernel
cannot) makes that row's loss term and gradient NaN, so the loss shows it.

fused_ce_rows: one workgroup per row (max, sum of exp, the row's gradient and loss term
into a scratch); fused_ce_sum: one workgroup adds the terms in a fixed order.
"""

from codegen.language import (F32, I32, I64, Bind, Case, Dispatch, Double, Guard, Kernel, Op,
                              Output, Outputs, Route, Rows, Scratch, Tensor, f32, u32)
from codegen.graph.inputs import randint, randn, tensor

REDUCE = ("../common/workgroup_reduce.wgsl",)
ROWS = Kernel("fused_ce_rows", workgroup=(64, 1, 1), helpers=("../common/each_row.wgsl", *REDUCE))
SUM = Kernel("fused_ce_sum", workgroup=(64, 1, 1), helpers=REDUCE)
TOL = {"atol": 1e-6, "rtol": 1e-5}


def ce_args(n: int, c: int, ignored: int = 0, dtype: str = "int64", scale: float = 1.0):
    """logits, labels (the last `ignored` rows labelled -100) and n_valid."""
    labels = [(7 * r + 3) % c if r < n - ignored else -100 for r in range(n)]
    return (randn(n, c) if scale == 1.0 else tensor(
        [[scale * ((r * 13 + j * 7) % 11 - 5) for j in range(c)] for r in range(n)]),
        tensor(labels, dtype=dtype), float(n - ignored))


PARAMS = {"num_rows": u32("N"), "C": u32("C"), "inv_n_valid": f32("1.0 / n_valid")}

OPS = [Op(
    name="fused_ce",
    targets=["et_vk.fused_ce.default"],
    args=[Tensor("logits", (F32,), rank=2), Tensor("labels", (I64, I32), rank=1),
          Double("n_valid"),
          Outputs("out", (Output("loss", (F32,), rank=0), Output("dlogits", (F32,), rank=2)))],
    let={"N": "logits.dims[0]", "C": "logits.dims[1]"},
    guards=[Guard("labels.dims == [N]", "labels", "does not hold one label per row",
                  got="labels.dims", expected="[{N}]"),
            Guard("C > 0", "logits", "has no classes", got="logits.dims",
                  expected="at least one class"),
            Guard("n_valid > 0.0", "n_valid", "is not positive (it divides)", got="n_valid",
                  expected="the count of labelled rows")],
    shapes={"loss": "ones(0)", "dlogits": "logits.dims"},
    resize="static",
    scratch=[Scratch("row_loss", "float32", "[N]")],
    dispatches=[
        Dispatch(name="rows", params=PARAMS,
                 bindings=[Bind("logits", "logits"), Bind("labels", "labels", elem="i32"),
                           Bind("dlogits", "dlogits", write=True),
                           Bind("row_loss", "row_loss", write=True)],
                 routes=[Route(ROWS, Rows("N"))]),
        Dispatch(name="sum", params=PARAMS,
                 bindings=[Bind("row_loss", "row_loss"), Bind("loss", "loss", write=True)],
                 routes=[Route(SUM, Rows("1"))]),
    ],
    cases=[
        Case("batch_of_tokens", ce_args(6, 37), route="fused_ce_rows", **TOL),
        Case("ignored_rows_int32", ce_args(9, 5, ignored=3, dtype="int32"), **TOL),
        Case("wide_vocab", ce_args(3, 1031, ignored=1), **TOL),
        Case("large_logits", ce_args(4, 11, scale=20.0), **TOL),
        Case("one_class", ce_args(5, 1), **TOL),
        Case("many_rows", ce_args(130, 7, ignored=40), route="fused_ce_sum", **TOL),
        Case("rejects_labels_shape", (randn(4, 3), randint(0, 3, 5), 4.0),
             raises="labels does not hold one label per row (got [5], expected [4])"),
        Case("rejects_no_classes", (randn(4, 0), randint(0, 1, 4), 4.0),
             raises="logits has no classes (got [4, 0], expected at least one class)"),
        Case("rejects_n_valid", (randn(4, 3), randint(0, 3, 4), 0.0),
             raises="n_valid is not positive (it divides) (got 0.0, expected the count of "
                    "labelled rows)"),
        Case("rejects_float_labels", (randn(4, 3), randn(4), 4.0),
             raises="labels has an unsupported dtype (got float32, expected int64 or int32)"),
    ],
)]
