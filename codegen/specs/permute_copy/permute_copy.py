"""permute_copy: out = self.permute(dims), rank 1..4 (dims right-aligned into 4 slots)."""

from codegen.spec import (Bind, Case, Dispatch, Elementwise, Guard, IntList, Kernel, Op, Output,
                          Param, Route, Tensor, u32)
from codegen.spec.inputs import randn

PERMUTE = Kernel("permute_copy")

OPS = [Op(
    name="permute_copy",
    targets=["aten.permute_copy.default"],
    args=[Tensor("self", rank=(1, 4)), IntList("dims"), Output("out", rank=(1, 4))],
    guards=[
        Guard("is_permutation(dims, self.rank)", "dims", "is not a permutation of the input's dims",
              got="dims", expected="each of 0..{self.rank - 1} once (negatives wrap)"),
    ],
    shapes={"out": "permute(self.dims, dims)"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "out_dims": Param("vec4<u32>", "right_align(out.dims, 4, 1)"),
            # input element stride of each output dim
            "in_strides": Param("vec4<u32>",
                                "right_align(permute(contiguous_strides(self.dims), dims), 4, 0)"),
            "num_elements": u32("out.numel"),
        },
        bindings=[Bind("input", "self"), Bind("output", "out", write=True)],
        routes=[Route(PERMUTE, Elementwise("out.numel"))],
    )],
    cases=[
        Case("heads_to_front", (randn(2, 5, 4, 8), [0, 2, 1, 3]), route="permute_copy", exact=True),
        Case("transpose_2d", (randn(7, 9), [1, 0]), exact=True),
        Case("negative_dims", (randn(3, 4, 5), [-1, 0, -2]), exact=True),
        Case("identity_1d", (randn(11), [0]), exact=True),
        Case("resize", (randn(2, 6, 3, 4), [0, 2, 1, 3]), resize={"self": (2, 3, 3, 4)}, exact=True),
        Case("repeated_dim", (randn(3, 4), [0, 0]),
             raises="dims is not a permutation of the input's dims (got [0, 0], expected each of "
                    "0..1 once (negatives wrap))"),
        Case("wrong_length", (randn(3, 4, 5), [1, 0]),
             raises="dims is not a permutation of the input's dims (got [1, 0], expected each of "
                    "0..2 once (negatives wrap))"),
    ],
)]
