"""rms_norm (ExecuTorch Vulkan custom op): y = x * rsqrt(mean(x^2, -1) + eps) * weight.

One 256-thread workgroup per row of the last dim (an LLM's decode step is one row: more
threads, fewer loads in a row per thread); the sum of squares is a workgroup tree
reduction.
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Double, Guard, Kernel, Op, Output,
                              Route, Rows, Tensor, f32, half_routes, same_dtype, u32)
from codegen.graph.inputs import randn, tensor

# Without runtime checks: rows below num_rows, columns below N, the tree reduction's
# partial[lid + stride] below 256.
RMS = Kernel("rms_norm_rows", workgroup=(256, 1, 1), runtime_checks=False,
             helpers=("../common/each_row.wgsl", "../common/workgroup_reduce.wgsl"))
ROUTE = Route(RMS, Rows("x.numel // N"))
FLOATS = (F32, F16)  # float16: the kernel's float16 twins (a float32 sum of squares)

OPS = [Op(
    name="rms_norm",
    targets=["et_vk.rms_norm.default"],
    args=[Tensor("x", FLOATS, rank=(1, 4)), Tensor("weight", FLOATS, rank=1), Double("eps"),
          Output("out", FLOATS, rank=(1, 4))],
    let={"N": "x.dims[-1]"},
    guards=[
        Guard("weight.dims[0] == N", "weight", "does not match the normalized dim",
              got="weight.dims", expected="[{N}]"),
        Guard("N > 0", "x", "has an empty last dim", got="x.dims", expected="a non-zero last dim"),
        same_dtype("x", ["weight"]),
    ],
    shapes={"out": "x.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"N": u32("N"), "num_rows": u32("x.numel // N"), "eps": f32("eps")},
        bindings=[Bind("input", "x", view="scalar"), Bind("weight", "weight", view="scalar"),
                  Bind("output", "out", write=True, view="scalar")],
        routes=[*half_routes([ROUTE], "x"), ROUTE],
    )],
    cases=[
        Case("qwen_hidden", (randn(1, 5, 256), randn(256), 1e-6), route="rms_norm_rows"),
        Case("rank2_odd_width", (randn(7, 100), randn(100), 1e-5)),
        Case("rank4_heads", (randn(1, 3, 4, 32), randn(32), 1e-6)),
        Case("resize_decode", (randn(1, 8, 64), randn(64), 1e-6), resize={"x": (1, 1, 64)}),
        # rows of many columns a thread (9 or 10 of 2,348)
        Case("wide_rows", (randn(2, 2348), randn(2348), 1e-6)),
        Case("weight_width", (randn(2, 16), randn(8), 1e-6),
             raises="weight does not match the normalized dim (got [8], expected [16])"),
        Case("empty_last_dim", (randn(2, 0), randn(0), 1e-6),
             raises="x has an empty last dim (got [2, 0], expected a non-zero last dim)"),
        Case("rejects_int32", (tensor([[1, 2]], dtype="int32"), randn(2), 1e-6),
             raises="x has an unsupported dtype (got int32, expected float32 or float16)"),
        Case("f16_hidden", (randn(1, 5, 256, dtype="float16"), randn(256, dtype="float16"), 1e-6),
             route="rms_norm_rows_f16"),
        # squares of 65504 overflow half, not the float32 sum
        Case("f16_extremes", (tensor([[65504.0, -65504.0, 1.0, 2.0 ** -24]], dtype="float16"),
                              tensor([1.0, 0.5, 2.0, 1.0], dtype="float16"), 1e-6)),
        Case("rejects_mixed_floats", (randn(2, 8, dtype="float16"), randn(8), 1e-6),
             raises="x does not share its dtype with weight (got float16, expected the dtype "
                    "of weight)"),
    ],
)]
