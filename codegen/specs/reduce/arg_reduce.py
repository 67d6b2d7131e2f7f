"""argmax and argmin: the first position of a row's largest / smallest element, over one dim
or (dim=None) the flattened tensor, as torch orders them: a NaN above every number (the
first NaN wins, for argmin too), of equal values the first (-0.0 equals 0.0).

The input is viewed as [outer, reduce, inner] around the dim, as the reductions of
reduce.py; one workgroup per output index (arg_reduce_rows.wgsl). float32 and float16
(the input read through its view: the float kernel's _f16 and _f16_packed twins widen each
half exactly, so the order is float16's), and int32 (and int64, which the graph holds as
int32: CLIP's text model pools at the argmax of its token ids) on a variant of the same body. torch's result is int64, int32 on the GPU. An empty
reduced dim (an empty tensor for dim=None) is refused, as torch refuses it; an empty
output over a non-empty dim is not.
"""

from codegen.language import (F16, F32, I32, Bind, Bool, Case, Dispatch, Guard, Int, Kernel,
                              Op, Output, Override, Params, Route, Rows, Tensor, half_routes, u32)
from codegen.graph.inputs import INT32_MAX, INT32_MIN, randint, randn, tensor

NAN, INF = float("nan"), float("inf")
ARG = Kernel("arg_reduce_rows", workgroup=(64, 1, 1),
             helpers=("../common/each_row.wgsl", "arg_element_view.wgsl"),
             consts={"IS_FLOAT": "true"}, aliases={"Elem": "f32"},
             overrides={"TAKE_MIN": Override("bool", False)})
ARG_I32 = ARG.variant("arg_reduce_rows_i32", consts={"IS_FLOAT": "false"},
                      aliases={"Elem": "i32"},
                      helpers=("../common/each_row.wgsl", "arg_element_i32.wgsl"))

LETS = {
    "dims": "self.dims if self.rank > 0 else [1]",  # a 0-d self is one row of one
    "d": "(dim + len(dims) if dim < 0 else dim) if dim is not None else 0",
    "in_range": "dim is None or (d >= 0 and d < len(dims))",
    "outer": "prod(dims[:d]) if dim is not None and in_range else 1",
    "reduce": "(dims[d] if in_range else 0) if dim is not None else self.numel",
    "inner": "prod(dims[d + 1:]) if dim is not None and in_range else 1",
}
SHAPE = ("(ones(self.rank) if keepdim else []) if dim is None or self.rank == 0 else "
         "(self.dims[:d] + [1] + self.dims[d + 1:] if keepdim else "
         "self.dims[:d] + self.dims[d + 1:])")


def arg_op(name: str, take_min: bool, cases: list[Case]) -> Op:
    params = Params({"num_rows": u32("outer * inner"), "reduce": u32("reduce"),
                     "inner": u32("inner")})
    route = {"overrides": {"TAKE_MIN": str(take_min)}}
    float_route = Route(ARG, Rows("outer * inner"), **route)
    return Op(
        name=name,
        targets=[f"aten.{name}.default"],
        args=[Tensor("self", (F32, F16, I32)), Int("dim", optional=True),
              Bool("keepdim", default=False), Output("out", (I32,))],
        let=LETS,
        guards=[
            Guard("in_range", "dim", "is out of range", got="dim",
                  expected="{-len(dims)}..{len(dims) - 1} or None"),
            Guard("reduce > 0", "self",
                  "has an empty reduced dim (torch refuses it)", got="self.dims",
                  expected="at least one element along dim (in the tensor for dim=None)"),
        ],
        shapes={"out": SHAPE},
        resize="dynamic",
        dispatches=[
            Dispatch(params=params, when=f"self.dtype != '{I32}'",
                     routes=[*half_routes([float_route], "self"), float_route],
                     bindings=[Bind("input", "self", view="scalar"),
                               Bind("output", "out", write=True, elem="i32")]),
            Dispatch(params=params, when=f"self.dtype == '{I32}'",
                     routes=[Route(ARG_I32, Rows("outer * inner"), **route)],
                     bindings=[Bind("input", "self", elem="i32"),
                               Bind("output", "out", write=True, elem="i32")]),
        ],
        cases=cases,
    )


# per row: NaNs (the first wins), equal values (the first wins), signed zeros (equal),
# infinities, all equal, the extremes of float32
SPECIALS = tensor([[1.0, NAN, 3.0, NAN], [0.0, -0.0, 0.0, -1.0], [-0.0, 0.0, -0.0, 1.0],
                   [-INF, -INF, -INF, -INF], [INF, INF, -INF, -INF], [2.0, 5.0, 5.0, 1.0],
                   [-3.4e38, 3.4e38, 1e-45, -1e-45], [NAN, -INF, INF, NAN], [7.0, 7.0, 7.0, 7.0]])
HALF_SPECIALS = tensor([[1.0, NAN, 3.0, NAN], [0.0, -0.0, 2.0 ** -24, -2.0 ** -24],
                        [65504.0, INF, 65504.0, -INF], [-65504.0, -INF, -65504.0, 65504.0],
                        [1.0, 1.0 + 2.0 ** -11, 1.0 + 2.0 ** -10, 1.0 + 2.0 ** -10],
                        [2.0 ** -24, 2.0 ** -25, 0.0, 2.0 ** -23]], dtype="float16")
INT_SPECIALS = tensor([[INT32_MIN, INT32_MAX, 0, INT32_MAX], [-1, -1, -2, -1],
                       [5, 2, 5, 2], [0, 0, 0, 0], [INT32_MIN, INT32_MIN, INT32_MAX, -7]],
                      dtype="int32")


def arg_cases(kernel: str) -> list[Case]:
    return [
        Case("last_dim", (randn(3, 4, 17), -1), route=kernel, exact=True),
        Case("middle_dim_keepdim", (randn(2, 13, 5), 1, True), exact=True),
        Case("first_dim", (randn(7, 3, 2), 0), exact=True),
        Case("flattened", (randn(5, 7, 3),), exact=True),
        Case("flattened_keepdim", (randn(3, 1, 5), None, True), exact=True),
        # more than 64 per workgroup: each invocation keeps the first of its own share
        Case("prime_row", (randn(3, 1009), 1), exact=True),
        Case("long_ties", (tensor([[0.0] * 300 + [1.0] * 400 + [0.0] * 300]), 1), exact=True),
        Case("ieee_specials", (SPECIALS, 1), exact=True),
        Case("ieee_specials_columns", (SPECIALS, 0), exact=True),
        Case("rank0", (tensor(2.5),), exact=True),
        Case("rank0_dim", (tensor(-1.5), -1, True), exact=True),
        Case("empty_output", (randn(0, 5), 1), exact=True),
        Case("resize", (randn(4, 6, 10), -1), resize={"self": (3, 5, 10)}, exact=True),
        Case("resize_flattened", (randn(4, 9),), resize={"self": (2, 7)}, exact=True),
        # CLIP's pooling: the argmax of int64 token ids over the sequence
        Case("int64_token_ids", (randint(0, 49408, 2, 77), -1), route=f"{kernel}_i32",
             exact=True),
        Case("int32_specials", (INT_SPECIALS, 1), exact=True),
        Case("int32_flattened", (randint(-9, 9, 6, 11, dtype="int32"),), exact=True),
        Case("dim_out_of_range", (randn(2, 3), 2),
             raises="dim is out of range (got 2, expected -2..1 or None)"),
        Case("empty_dim", (randn(3, 0), 1),
             raises="self has an empty reduced dim (torch refuses it) (got [3, 0], expected at "
                    "least one element along dim (in the tensor for dim=None))"),
        Case("empty_flattened", (randn(0, 3),),
             raises="self has an empty reduced dim (torch refuses it) (got [0, 3], expected at "
                    "least one element along dim (in the tensor for dim=None))"),
        Case("rejects_bool", (tensor([[True, False]], dtype="bool"), 1),
             raises="self has an unsupported dtype (got bool, expected float32 or float16 or "
                    "int32)"),
        # float16, widened exactly: ties of values float32 would tell apart, 65504 and inf,
        # NaN, subnormals against zero
        Case("f16_last_dim", (randn(3, 4, 17, dtype="float16"), -1), route=f"{kernel}_f16",
             exact=True),
        Case("f16_flattened", (randn(5, 7, 3, dtype="float16"),), exact=True),
        Case("f16_prime_row", (randn(3, 1009, dtype="float16"), 1), exact=True),
        Case("f16_specials", (HALF_SPECIALS, 1), route=f"{kernel}_f16", exact=True),
        Case("f16_specials_columns", (HALF_SPECIALS, 0), exact=True),
    ]


OPS = [arg_op("argmax", False, arg_cases("arg_reduce_rows")),
       arg_op("argmin", True, arg_cases("arg_reduce_rows"))]
