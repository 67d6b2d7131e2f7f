"""linear: out = input @ weight.T + bias over the last dim of an input of any rank.

One invocation per output element, a K-long dot product: the correct baseline every
model needs (the classifier heads of ResNet and MobileNetV2, transformer projections);
the GEMM family of the GEMM issue replaces it where it is slow.
"""

from codegen.spec import (Bind, Case, Dispatch, Elementwise, Guard, Kernel, Op, Output, Route,
                          Tensor, u32)
from codegen.spec.inputs import randn, tensor

LINEAR = Kernel("linear_rows")

OPS = [Op(
    name="linear",
    targets=["aten.linear.default"],
    args=[Tensor("input", rank=(1, 8)), Tensor("weight", rank=2),
          Tensor("bias", rank=1, optional=True), Output("out")],
    let={"K": "input.dims[-1]", "N": "weight.dims[0]", "M": "input.numel // max(K, 1)"},
    guards=[
        Guard("weight.dims[1] == K", "weight", "does not match the input's last dim",
              got="weight.dims", expected="[N, {K}]"),
        Guard("not bias.present or bias.numel == N", "bias",
              "does not hold one value per output feature", got="bias.dims", expected="[{N}]"),
    ],
    shapes={"out": "input.dims[:-1] + [N]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"M": u32("M"), "N": u32("N"), "K": u32("K"), "has_bias": u32("bias.present")},
        bindings=[Bind("input", "input"), Bind("weight", "weight"), Bind("bias", "bias"),
                  Bind("output", "out", write=True)],
        routes=[Route(LINEAR, Elementwise("M * N"))],
    )],
    cases=[
        Case("classifier_head", (randn(2, 48), randn(10, 48), randn(10)), route="linear_rows"),
        Case("tokens_no_bias", (randn(2, 7, 24), randn(13, 24))),
        Case("vector", (randn(17), randn(5, 17), randn(5))),
        Case("rank4", (randn(2, 3, 4, 8), randn(6, 8), randn(6))),
        Case("long_k", (randn(3, 1031), randn(4, 1031), randn(4))),
        Case("resize", (randn(4, 9, 16), randn(8, 16), randn(8)), resize={"input": (4, 5, 16)}),
        Case("weight_width", (randn(2, 8), randn(4, 6), None),
             raises="weight does not match the input's last dim (got [4, 6], expected [N, 8])"),
        Case("bias_length", (randn(2, 8), randn(4, 8), randn(3)),
             raises="bias does not hold one value per output feature (got [3], expected [4])"),
        Case("rejects_int32", (tensor([[1, 2]], dtype="int32"), randn(3, 2), None),
             raises="input has an unsupported dtype (got int32, expected float32)"),
    ],
)]
