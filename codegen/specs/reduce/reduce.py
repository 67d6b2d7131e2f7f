"""Reductions over a run of adjacent dims: mean.dim, sum.dim_IntList and amax.

The input is viewed as [outer, reduce, inner] around the reduced run (dims lo..hi), so
one kernel serves a global average pool (the last two dims), a mean over tokens (a
middle dim) and a reduction over everything (no dims given). Reductions over dims that
are not adjacent (e.g. [0, 2]) are refused by a guard, so export leaves them on
ExecuTorch's CPU kernels. The kernel's MODE override picks sum, mean or max.
"""

from codegen.spec import (Bind, Bool, Case, Dispatch, Guard, IntList, Kernel, Op, Output,
                          Override, Route, Rows, ScalarType, Tensor, u32)
from codegen.spec.inputs import randn, tensor, torch_dtype

REDUCE = Kernel("reduce_rows", workgroup=(64, 1, 1),
                overrides={"MODE": Override("u32", 0)})
MODES = {"sum": 0, "mean": 1, "max": 2}
NAN, INF = float("nan"), float("inf")

# the reduced run of dims: every dim when none are given, as torch reads dim=None / []
LETS = {
    "in_range": "len(dim) == 0 or (min(dim) >= -self.rank and max(dim) < self.rank)",
    "dims": "normalize_dims(dim, self.rank) if len(dim) > 0 and in_range else range(self.rank)",
    "lo": "min(dims)",
    "hi": "max(dims)",
    "outer": "prod(self.dims[:lo])",
    "reduce": "prod(self.dims[lo:hi + 1])",
    "inner": "prod(self.dims[hi + 1:])",
}
GUARDS = [
    Guard("in_range", "dim", "names a dim the input does not have", got="dim",
          expected="dims in -{self.rank}..{self.rank - 1}"),
    Guard("hi - lo + 1 == len(dims)", "dim", "does not name adjacent dims, each once",
          got="dim", expected="a run of adjacent dims such as [-2, -1]"),
]
SHAPE = "self.dims[:lo] + ones(hi - lo + 1) + self.dims[hi + 1:] if keepdim else " \
        "self.dims[:lo] + self.dims[hi + 1:]"


def reduce_op(name: str, target: str, mode: str, args: list, cases: list[Case]) -> Op:
    return Op(
        name=name,
        targets=[target],
        args=[Tensor("self", rank=(1, 8)), *args, Output("out")],
        let=LETS,
        guards=GUARDS,
        shapes={"out": SHAPE},
        resize="dynamic",
        dispatches=[Dispatch(
            params={"num_outputs": u32("outer * inner"), "reduce": u32("reduce"),
                    "inner": u32("inner")},
            bindings=[Bind("input", "self"), Bind("output", "out", write=True)],
            routes=[Route(REDUCE, Rows("outer * inner"), overrides={"MODE": str(MODES[mode])})],
        )],
        cases=cases,
    )


def dim_cases() -> list[Case]:
    """Cases for a (self, dim, keepdim) reduction."""
    return [
        # a global average pool: the last two dims, kept (ResNet, MobileNetV2)
        Case("pool_keepdim", (randn(2, 8, 5, 7), [-1, -2], True), route="reduce_rows"),
        Case("pool", (randn(2, 3, 9, 4), [2, 3], False)),
        Case("tokens", (randn(2, 13, 24), [1], False)),  # a middle dim: inner = 24
        Case("first_dim", (randn(5, 3, 2), [0], True)),
        Case("prime_row", (randn(3, 1009), [-1], False)),  # more than 64 per workgroup
        Case("resize", (randn(4, 6, 10), [-1], False), resize={"self": (3, 5, 10)}),
        Case("not_adjacent", (randn(2, 3, 4), [0, 2], False),
             raises="dim does not name adjacent dims, each once (got [0, 2], expected a run "
                    "of adjacent dims such as [-2, -1])"),
        Case("out_of_range", (randn(2, 3), [2], False),
             raises="dim names a dim the input does not have (got [2], expected dims in "
                    "-2..1)"),
        Case("rejects_int32", (tensor([[1, 2]], dtype="int32"), [1], False),
             raises="self has an unsupported dtype (got int32, expected float32)"),
    ]


OPS = [
    reduce_op("mean_dim", "aten.mean.dim", "mean",
              [IntList("dim", optional=True), Bool("keepdim", default=False),
               ScalarType("dtype")],
              dim_cases() + [
                  Case("all_dims", (randn(3, 4, 5), None, False)),
                  Case("float32_dtype", (randn(4, 5), [0], False),
                       kwargs={"dtype": torch_dtype("float32")}),
                  Case("rejects_float16_dtype", (randn(4, 5), [0], False),
                       kwargs={"dtype": torch_dtype("float16")},
                       raises="dtype is not supported (got float16, expected None or float32)"),
              ]),
    reduce_op("sum_dim", "aten.sum.dim_IntList", "sum",
              [IntList("dim", optional=True), Bool("keepdim", default=False),
               ScalarType("dtype")],
              dim_cases() + [Case("all_dims_keepdim", (randn(3, 4, 5), None, True))]),
    reduce_op("amax", "aten.amax.default", "max",
              [IntList("dim"), Bool("keepdim", default=False)],
              dim_cases() + [
                  Case("all_dims", (randn(6, 7), [], False)),
                  # NaN wins over everything, -inf loses to everything (exactly as torch;
                  # the sign of a max of -0.0 and 0.0 is the adapter's, so not tested)
                  Case("ieee_specials", (tensor([[NAN, 1.0, -INF], [-INF, -INF, -INF],
                                                 [3.0, INF, 2.0], [-2.0, NAN, -1.0]]),
                                         [-1], False), exact=True),
              ]),
]
