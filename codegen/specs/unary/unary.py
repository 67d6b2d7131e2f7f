"""Elementwise unary ops: one handler shape, one kernel per op.

Each kernel is an apply() on vec4s; the shared entry point (unary_map.wgsl) maps 4 vec4s
per invocation (tensor buffers are whole vec4s, so the last vec4 may run past the
elements but never past the buffer)."""

from codegen.spec import (Bind, Case, Dispatch, Elementwise, Kernel, Op, Output, Route, Scalar,
                          Str, Tensor, f32, u32)
from codegen.spec.inputs import rand, randn, tensor


UNARY_WORKGROUP = (128, 1, 1)


def unary_op(name: str, kernel: Kernel, cases: list[Case], extra_args=(), extra_params=None) -> Op:
    """An elementwise op out[i] = f(self[i]) that follows the live shape on resize."""
    return Op(
        name=name,
        targets=[f"aten.{name}.default"],
        args=[Tensor("self"), *extra_args, Output("out")],
        shapes={"out": "self.dims"},
        resize="dynamic",
        dispatches=[Dispatch(
            params={"num_vec4": u32("ceil_div(out.numel, 4)"), **(extra_params or {})},
            helpers=["unary_map.wgsl"],
            bindings=[Bind("input", "self", elem="vec4<f32>"),
                      Bind("output", "out", write=True, elem="vec4<f32>")],
            routes=[Route(kernel, Elementwise("ceil_div(out.numel, 4)", per_invocation=4))],
        )],
        cases=cases,
    )


NAN, INF = float("nan"), float("inf")
# IEEE special values (see docs/numerics.md): NaN, both infinities, both zeros, the
# largest finite floats and values that overflow exp() in a naive sigmoid.
SPECIALS = tensor([NAN, INF, -INF, -0.0, 0.0, -1.0, 1.0, 3.4e38, -3.4e38, 100.0, -100.0, -NAN])


def common_cases(kernel: str, exact_specials: bool) -> list[Case]:
    return [
        Case("basic_4d", (randn(2, 3, 8, 8),), route=kernel),
        Case("odd_length", (randn(1001),)),
        Case("resize", (randn(4, 64),), resize={"self": (3, 50)}),
        # exact: -0.0 stays -0.0, NaN stays NaN, infinities pass (bit for bit)
        # (sigmoid: exp() results below FLT_MIN may be flushed to zero, so atol=FLT_MIN)
        Case("ieee_specials", (SPECIALS,), exact=exact_specials, atol=1.2e-38, rtol=1e-5),
        Case("rejects_int32", (tensor([1, 2, 3], dtype="int32"),),
             raises="self has an unsupported dtype (got int32, expected float32)"),
    ]


OPS = [
    unary_op("relu", Kernel("relu", workgroup=UNARY_WORKGROUP),
             common_cases("relu", exact_specials=True) + [
        # 773 vec4s, the last one partial: in the second workgroup lanes 0-4 store 3 vec4s,
        # the other lanes 2
        Case("partial_invocation", (randn(773 * 4 - 1),)),
    ]),
    unary_op("sigmoid", Kernel("sigmoid", workgroup=UNARY_WORKGROUP),
             common_cases("sigmoid", exact_specials=False)),
    unary_op("leaky_relu", Kernel("leaky_relu", workgroup=UNARY_WORKGROUP), [
        Case("slope_4d", (randn(1, 16, 8, 8), 0.01), route="leaky_relu"),
        Case("slope_2d", (randn(3, 32), 0.2)),
        Case("default_slope", (randn(5, 7),)),
        Case("int_slope", (randn(5, 7), 2)),
        Case("resize", (randn(4, 64), 0.1), resize={"self": (2, 9)}),
        Case("ieee_specials", (SPECIALS, 0.01), exact=True),
        Case("ieee_specials_negative_slope", (SPECIALS, -2.0), exact=True),
    ], extra_args=[Scalar("negative_slope")],
        extra_params={"negative_slope": f32("negative_slope")}),
    unary_op("gelu", Kernel("gelu", workgroup=UNARY_WORKGROUP), [
        Case("basic_4d", (randn(2, 3, 8, 8),), route="gelu"),
        Case("tanh_4d", (randn(2, 3, 8, 8),), kwargs={"approximate": "tanh"}),
        Case("odd_length", (randn(1001),)),
        Case("wide_range", (rand(4099, low=-12.0, high=12.0),), atol=1e-6, rtol=1e-5),
        Case("wide_range_tanh", (rand(4099, low=-12.0, high=12.0),),
             kwargs={"approximate": "tanh"}, atol=1e-6, rtol=1e-5),
        Case("resize", (randn(4, 64),), kwargs={"approximate": "tanh"},
             resize={"self": (3, 50)}),
        Case("ieee_specials", (SPECIALS,), atol=1e-6, rtol=1e-5),
        Case("ieee_specials_tanh", (SPECIALS,), kwargs={"approximate": "tanh"}, atol=1e-6,
             rtol=1e-5),
        Case("rejects_unknown_approximation", (randn(2, 3),), kwargs={"approximate": "erf"},
             raises="approximate is not supported (got erf, expected none or tanh)"),
    ], extra_args=[Str("approximate", values=("none", "tanh"), default="none")],
        extra_params={"tanh_approximation": u32("approximate == 'tanh'")}),
]
