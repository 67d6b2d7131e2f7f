"""any over a run of adjacent dims: any.default (every dim), any.dim and any.dims, on
bool, float32 and float16 (NaN counts as true, -0.0 as false, a subnormal half as true:
decided on the bits, two halves a word, on every device) and int32 inputs, into bool.

The input is viewed as [outer, reduce, inner] around the reduced dims. Rows (inner == 1)
take a workgroup reduction (any_rows), other runs one invocation per output word
(any_columns); either way an invocation that writes writes whole words of 4 bools.
any.dims refuses dim=None and dim=[]: torch reduces every dim for one and none for the
other, and the graph carries both as the same empty list.
"""

from dataclasses import replace

from codegen.language import (BOOL, F16, F32, I32, Bind, Bool, Case, Dispatch, Elementwise, Guard, Int,
                          IntList, Kernel, Op, Output, Override, Route, Rows, Tensor, u32)
from codegen.graph.inputs import randint, tensor

KIND = Override("u32", 0)
ANY_ROWS = Kernel("any_rows", workgroup=(256, 1, 1), overrides={"KIND": KIND})
ANY_COLUMNS = Kernel("any_columns", workgroup=(64, 1, 1), helpers=("../common/each_word.wgsl",),
                     overrides={"KIND": KIND})
# elements.wgsl's KIND_F32, KIND_F16, KIND_I32, KIND_BOOL
KIND_OF_SELF = ("0 if self.dtype == 'float32' else (5 if self.dtype == 'float16' else "
                "(1 if self.dtype == 'int32' else 2))")
NAN, INF = float("nan"), float("inf")

RUN_LETS = {
    "outer": "prod(self.dims[:lo])",
    "reduce": "prod(self.dims[lo:hi + 1])",
    "inner": "prod(self.dims[hi + 1:])",
}
RUN_SHAPE = "self.dims[:lo] + ones(hi - lo + 1) + self.dims[hi + 1:] if keepdim else " \
            "self.dims[:lo] + self.dims[hi + 1:]"


def any_op(name: str, target: str, args: list, lets: dict, guards: list, shape: str,
           cases: list[Case], min_rank: int = 1, columns: bool = True) -> Op:
    """`columns=False`: the reduced dims are always the innermost (any.default)."""
    words = "ceil_div(outer * inner, 4)"
    kernel_args = {"overrides": {"KIND": KIND_OF_SELF}}
    return Op(
        name=name,
        targets=[target],
        args=[Tensor("self", (F32, F16, I32, BOOL), rank=(min_rank, 8)), *args,
              Output("out", (BOOL,))],
        let={**lets, **RUN_LETS},
        guards=guards,
        shapes={"out": shape},
        resize="dynamic",
        dispatches=[Dispatch(
            params={"num_outputs": u32("outer * inner"), "num_words": u32(words),
                    "reduce": u32("reduce"), "inner": u32("inner")},
            helpers=["elements.wgsl"],
            bindings=[Bind("input", "self", elem="u32"),
                      Bind("output", "out", write=True, elem="u32")],
            routes=[Route(ANY_ROWS, Rows(words), when="inner == 1", **kernel_args),
                    Route(ANY_COLUMNS, Elementwise(words), **kernel_args)] if columns else
                   [Route(ANY_ROWS, Rows(words), **kernel_args)],
        )],
        cases=[c if c.raises else replace(c, exact=True) for c in cases],
    )


def common_cases(dim, keepdim: tuple = ()) -> list[Case]:
    """Cases of an op called as (self, dim, *keepdim), reducing the last dim."""
    return [
        Case("bool_rows", (randint(0, 2, 7, 3, dtype="bool"), dim, *keepdim), route="any_rows"),
        # sparse rows: mostly all-false, some true only at the row's end
        Case("sparse_prime_rows", (tensor([[False] * 1008 + [i % 3 == 0] for i in range(6)],
                                          dtype="bool"), dim, *keepdim)),
        Case("float_specials", (tensor([[NAN, 0.0], [-0.0, 0.0], [0.0, -INF], [1e-45, 0.0],
                                        [-0.0, -0.0]]), dim, *keepdim)),
        Case("int32", (randint(-1, 2, 9, 4, dtype="int32"), dim, *keepdim)),
        Case("resize", (randint(0, 2, 6, 10, dtype="bool"), dim, *keepdim),
             resize={"self": (3, 7)}),
        # float16: NaN and subnormal halves true, -0.0 false; odd rows straddle words
        Case("f16_specials", (tensor([[NAN, 0.0, -0.0], [-0.0, 0.0, 0.0], [0.0, 2.0 ** -24, 0.0],
                                      [-0.0, -0.0, -INF], [0.0, 0.0, 65504.0]],
                                     dtype="float16"), dim, *keepdim)),
        Case("f16_sparse_rows", (tensor([[0.0] * 1008 + [float(i % 3 == 0)] for i in range(5)],
                                        dtype="float16"), dim, *keepdim)),
        Case("rejects_int8", (randint(-3, 3, 3, 4, dtype="int8"), dim, *keepdim),
             raises="self has an unsupported dtype (got int8, expected float32 or float16 or "
                    "int32 or bool)"),
    ]


OPS = [
    any_op("any", "aten.any.default", [], {"lo": "0", "hi": "self.rank - 1"}, [],
           "ones(0)", [
               Case("bool", (randint(0, 2, 3, 5, dtype="bool"),), route="any_rows"),
               Case("all_false", (tensor([[False] * 7] * 5, dtype="bool"),)),
               Case("only_last_true", (tensor([False] * 4098 + [True], dtype="bool"),)),
               Case("float_nan", (tensor([0.0, -0.0, NAN]),)),
               Case("float_negative_zero", (tensor([0.0, -0.0, 0.0]),)),
               Case("zero_dim", (tensor(2.0),)),
               Case("resize", (randint(0, 2, 6, 10, dtype="bool"),), resize={"self": (3, 7)}),
               Case("f16_negative_zeros", (tensor([0.0, -0.0, 0.0], dtype="float16"),)),
               Case("f16_subnormal", (tensor([[0.0, -0.0, -(2.0 ** -24)]] * 3, dtype="float16"),)),
               Case("rejects_int8", (randint(-3, 3, 3, 4, dtype="int8"),),
                    raises="self has an unsupported dtype (got int8, expected float32 or "
                           "float16 or int32 or bool)"),
           ], min_rank=0, columns=False),
    any_op("any_dim", "aten.any.dim", [Int("dim"), Bool("keepdim", default=False)],
           {"in_range": "dim >= -self.rank and dim < self.rank",
            "lo": "(dim + self.rank if dim < 0 else dim) if in_range else 0", "hi": "lo"},
           [Guard("in_range", "dim", "names a dim the input does not have", got="dim",
                  expected="a dim in -{self.rank}..{self.rank - 1}")],
           RUN_SHAPE, common_cases(-1) + [
               Case("middle_dim", (randint(0, 2, 2, 5, 7, dtype="bool"), 1), route="any_columns"),
               Case("first_dim_keepdim", (randint(0, 2, 3, 1, 9, dtype="bool"), 0, True)),
               Case("float_columns", (tensor([[NAN, 0.0, -0.0], [0.0, -0.0, -0.0]]), 0)),
               Case("f16_columns", (tensor([[NAN, 0.0, -0.0, 0.0, 0.0], [0.0, -0.0, -0.0, 2.0 ** -24, 0.0],
                                            [0.0, 0.0, 0.0, 0.0, 0.0]], dtype="float16"), 0),
                    route="any_columns"),
               Case("columns_resize", (randint(0, 2, 4, 6, 5, dtype="bool"), 1),
                    resize={"self": (3, 6, 2)}),
               Case("rank1", (randint(0, 2, 11, dtype="bool"), 0)),
               Case("out_of_range", (randint(0, 2, 2, 3, dtype="bool"), 2),
                    raises="dim names a dim the input does not have (got 2, expected a dim in "
                           "-2..1)"),
           ]),
    any_op("any_dims", "aten.any.dims",
           [IntList("dim", optional=True), Bool("keepdim", default=False)],
           {"in_range": "len(dim) > 0 and min(dim) >= -self.rank and max(dim) < self.rank",
            "dims": "normalize_dims(dim, self.rank) if in_range else range(self.rank)",
            "lo": "min(dims)", "hi": "max(dims)"},
           [Guard("len(dim) > 0", "dim", "is None or empty (torch reduces every dim or none; "
                  "the graph does not tell them apart)", got="dim", expected="at least one dim"),
            Guard("in_range", "dim", "names a dim the input does not have", got="dim",
                  expected="dims in -{self.rank}..{self.rank - 1}"),
            Guard("hi - lo + 1 == len(dims)", "dim", "does not name adjacent dims, each once",
                  got="dim", expected="a run of adjacent dims such as [-2, -1]")],
           RUN_SHAPE, common_cases([-1]) + [
               Case("last_two_keepdim", (randint(0, 2, 3, 4, 5, dtype="bool"), [-1, -2], True)),
               Case("middle_dims", (randint(0, 2, 2, 3, 4, 5, dtype="bool"), [1, 2]),
                    route="any_columns"),
               Case("none", (randint(0, 2, 2, 3, dtype="bool"), None),
                    raises="dim is None or empty (torch reduces every dim or none; the graph "
                           "does not tell them apart) (got [], expected at least one dim)"),
               Case("not_adjacent", (randint(0, 2, 2, 3, 4, dtype="bool"), [0, 2]),
                    raises="dim does not name adjacent dims, each once (got [0, 2], expected a "
                           "run of adjacent dims such as [-2, -1])"),
               Case("out_of_range", (randint(0, 2, 2, 3, dtype="bool"), [2]),
                    raises="dim names a dim the input does not have (got [2], expected dims in "
                           "-2..1)"),
           ]),
]
