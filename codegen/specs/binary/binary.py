"""Broadcasting binary ops (add, sub, mul): one kernel, the op picked by an override.

Dims are right-aligned into eight slots (array<vec4<u32>, 2>) so one rank-agnostic
kernel serves every rank up to 8; a broadcast dim reads with stride 0. Operands of the
same shape take a vec4 path inside the same kernel (a uniform flag, not a route, so a
resize that turns an equal-shape pair into a broadcast one keeps working).
"""

from codegen.spec import (Bind, Case, Dispatch, Elementwise, Guard, Kernel, Op, Output, Override,
                          Param, Route, Scalar, Tensor, f32, u32)
from codegen.spec.inputs import randn, tensor

BINARY = Kernel("binary_broadcast", workgroup=(128, 1, 1), overrides={"OP": Override("u32", 0)})
OP_CODES = {"add": 0, "sub": 1, "mul": 2}
SLOTS = 8


def binary_op(name: str, cases: list[Case], alpha: bool) -> Op:
    """out = self <op> alpha * other, broadcasting, following the live shapes on resize."""
    return Op(
        name=name,
        targets=[f"aten.{name}.Tensor"],
        args=[Tensor("self", rank=(0, SLOTS)), Tensor("other", rank=(0, SLOTS)),
              *([Scalar("alpha")] if alpha else []), Output("out", rank=(0, SLOTS))],
        guards=[Guard("broadcasts(self.dims, other.dims)", "other", "does not broadcast with self", got="other.dims",
                      expected="dims equal to or 1 where {self.dims} differs")],
        shapes={"out": "broadcast_shape(self.dims, other.dims)"},
        resize="dynamic",
        dispatches=[Dispatch(
            params={
                "out_dims": Param(f"array<vec4<u32>, {SLOTS // 4}>",
                                  f"right_align(out.dims, {SLOTS}, 1)"),
                "self_strides": Param(f"array<vec4<u32>, {SLOTS // 4}>",
                                      f"broadcast_strides(self.dims, right_align(out.dims, {SLOTS}, 1))"),
                "other_strides": Param(f"array<vec4<u32>, {SLOTS // 4}>",
                                       f"broadcast_strides(other.dims, right_align(out.dims, {SLOTS}, 1))"),
                "alpha": f32("alpha" if alpha else "1.0"),
                "num_elements": u32("out.numel"),
                "num_vec4": u32("ceil_div(out.numel, 4)"),
                "rank": u32("out.rank"),
                "same_shape": u32("self.dims == other.dims"),
            },
            bindings=[Bind("lhs", "self", elem="vec4<f32>"), Bind("rhs", "other", elem="vec4<f32>"),
                      Bind("output", "out", write=True, elem="vec4<f32>")],
            routes=[Route(BINARY, Elementwise("ceil_div(out.numel, 4)", per_invocation=4),
                          overrides={"OP": str(OP_CODES[name])})],
        )],
        cases=cases,
    )


NAN, INF, BIG = float("nan"), float("inf"), 3.4e38
# Elementwise pairs of IEEE special values (see docs/numerics.md): inf - inf and 0 * inf
# give NaN, NaN propagates from either side, the sign of a zero result follows IEEE,
# and the largest finite floats overflow to infinity.
SPECIAL_LHS = tensor([INF, INF, -INF, NAN, 1.0, -0.0, -0.0, 0.0, BIG, -BIG, 0.0, 1.0])
SPECIAL_RHS = tensor([INF, -INF, -INF, 1.0, NAN, -0.0, 0.0, -0.0, BIG, BIG, INF, -1.0])


def common_cases(name: str) -> list[Case]:
    return [
        Case("ieee_specials", (SPECIAL_LHS, SPECIAL_RHS), exact=True),
        Case("nan_broadcast_operand", (randn(3, 4), tensor(NAN)), exact=True),
        Case("same_shape", (randn(2, 3, 4, 5), randn(2, 3, 4, 5)), route="binary_broadcast"),
        # 773 vec4s, the last partial: lanes of the second workgroup store 3 or 2 vec4s
        Case("same_shape_partial_invocation", (randn(773 * 4 - 1), randn(773 * 4 - 1))),
        # rows of 6: some vec4s of the output cross a row end
        Case("rows_cross_vec4s", (randn(5, 6), randn(5, 1))),
        Case("nchw_minus_nc11", (randn(2, 8, 5, 5), randn(2, 8, 1, 1))),
        Case("both_broadcast", (randn(4, 1, 6), randn(3, 1))),
        Case("scalar_operand", (randn(2, 7), randn())),
        Case("one_element_operand", (randn(3, 5), randn(1))),
        Case("rank8", (randn(2, 1, 2, 3, 1, 2, 3, 2), randn(3, 4, 1, 3, 1))),
        Case("resize", (randn(2, 6, 4), randn(6, 1)), resize={"self": (1, 6, 3)}),
        # equal shapes at build, a broadcast after the resize
        Case("resize_into_broadcast", (randn(3, 4), randn(3, 4)), resize={"other": (1, 4)}),
        Case("no_broadcast", (randn(2, 3), randn(4)),
             raises="other does not broadcast with self (got [4], expected dims equal to or 1 "
                    "where [2, 3] differs)"),
        Case("rejects_int32", (randn(3), randn(3, dtype="int32")),
             raises="other has an unsupported dtype (got int32, expected float32)"),
    ]


OPS = [
    binary_op("add", common_cases("add") + [
        Case("alpha_double", (randn(2, 3), randn(3)), kwargs={"alpha": 0.5}),
        Case("alpha_int", (randn(4, 4), randn(4, 1)), kwargs={"alpha": 3}),
    ], alpha=True),
    binary_op("sub", common_cases("sub") + [
        Case("alpha_double", (randn(2, 3, 4), randn(4)), kwargs={"alpha": -1.5}),
        Case("alpha_int", (randn(4, 4), randn(1, 4)), kwargs={"alpha": 2}),
    ], alpha=True),
    binary_op("mul", common_cases("mul"), alpha=False),
]
