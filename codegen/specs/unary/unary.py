"""Elementwise unary ops: one handler shape, one kernel per op.

Each kernel is an apply() on vec4s; the shared entry point (../common/map_vec4s.wgsl)
maps 4 vec4s per invocation (tensor buffers are whole vec4s, so the last vec4 may run past
the elements but never past the buffer). float32 and float16 (each kernel's float16 twins,
_family.py), and abs has a kernel for int32 (and int64) tensors too. The family's shared parts
are in _family.py; fmod.Scalar is in fmod.py, round and bitwise_not in rounding.py."""

from codegen.language import (F16, F32, I32, Case, Guard, Op, Output, Override, Scalar, Str,
                              Tensor, f32, u32)
from codegen.graph.inputs import INT32_MAX, INT32_MIN, rand, randint, randn, tensor
from codegen.specs.unary._family import (FLOAT_BITS, FLT_MIN, INF, NAN, REJECTS_INT32, SIGNED,
                                         dtype_dispatch, half_cases, math_op, standard_cases,
                                         unary_kernel, unary_op)

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
        Case("rejects_int32", (tensor([1, 2, 3], dtype="int32"),), raises=REJECTS_INT32),
        *half_cases(kernel, exact=exact_specials),
    ]


OPS = [
    unary_op("relu", unary_kernel("relu"),
             common_cases("relu", exact_specials=True) + [
        # 773 vec4s, the last one partial: in the second workgroup lanes 0-4 store 3 vec4s,
        # the other lanes 2
        Case("partial_invocation", (randn(773 * 4 - 1),)),
    ]),
    unary_op("sigmoid", unary_kernel("sigmoid"),
             common_cases("sigmoid", exact_specials=False)),
    unary_op("leaky_relu", unary_kernel("leaky_relu"), [
        Case("slope_4d", (randn(1, 16, 8, 8), 0.01), route="leaky_relu"),
        Case("slope_2d", (randn(3, 32), 0.2)),
        Case("default_slope", (randn(5, 7),)),
        Case("int_slope", (randn(5, 7), 2)),
        Case("resize", (randn(4, 64), 0.1), resize={"self": (2, 9)}),
        Case("ieee_specials", (SPECIALS, 0.01), exact=True),
        Case("ieee_specials_negative_slope", (SPECIALS, -2.0), exact=True),
        *half_cases("leaky_relu", (0.01,), exact=True),
    ], extra_args=[Scalar("negative_slope")],
        extra_params={"negative_slope": f32("negative_slope")}),
    unary_op("gelu", unary_kernel("gelu"), [
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
        *half_cases("gelu"),
    ], extra_args=[Str("approximate", values=("none", "tanh"), default="none")],
        extra_params={"tanh_approximation": u32("approximate == 'tanh'")}),
]


# --- the elementwise math family -------------------------------------------------------


SIN_COS = unary_kernel("sin_cos", overrides={"QUADRANT": Override("u32", 0)})
CLAMP = unary_kernel("clamp")
CLAMP_SPECIALS = tensor([NAN, INF, -INF, -0.0, 0.0, -1.0, 1.0, 0.5, -0.5, 3.4e38, -3.4e38, 2.0,
                         -2.0, 1e-30])

# pow: bases that cover every branch of C99 pow (zeros, infinities, +-1, |x| < 1, > 1)
POW_BASES = tensor([NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0,
                    1e-3, -1e3])
POW_EXACT_BASES = tensor([NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0])


def pow_cases() -> list[Case]:
    cases = [
        Case("general_4d", (rand(2, 3, 8, 8, low=0.01, high=4.0), 2.5), route="pow_scalar",
             atol=1e-6, rtol=1e-5),
        Case("odd_length", (randn(1001), 3), exact=True),
        Case("resize", (rand(4, 64, low=0.1, high=3.0), -1.5), resize={"self": (3, 50)},
             atol=1e-6, rtol=1e-5),
        Case("partial_invocation", (randn(773 * 4 - 1), 2.0), exact=True),
        Case("wide_range", (rand(4099, low=0.0, high=60.0), 21.5), atol=1e-30, rtol=2e-5),
        Case("negative_bases_odd", (rand(1031, low=-9.0, high=9.0), 7.0), atol=1e-6,
             rtol=2e-5),
        Case("negative_bases_even", (rand(1031, low=-9.0, high=9.0), -4.0), atol=1e-6,
             rtol=2e-5),
        Case("negative_bases_fraction", (rand(1031, low=-9.0, high=9.0), 1.25), atol=1e-6,
             rtol=2e-5),
        Case("int_exponent", (randn(5, 7), -3), atol=1e-6, rtol=1e-5),
        # overflow to inf and underflow to zero, signed by an odd exponent (float32 golden)
        Case("overflow_underflow", (tensor([3.4e38, -1e20, 1e20, 1e-20, -1e-20]), 5.0),
             exact=True),
        Case("rejects_int32", (tensor([1, 2, 3], dtype="int32"), 2.0), raises=REJECTS_INT32),
        *half_cases("pow_scalar", (2.0,)),
    ]
    # torch's fast paths and C99 pow at the edges, each over bases covering every branch
    for tag, e in [("square", 2.0), ("cube", 3.0), ("zero", 0.0), ("one", 1.0),
                   ("sqrt", 0.5), ("odd", 5.0), ("even", 4.0), ("negative_odd", -3.0),
                   ("fraction", 2.5), ("negative_fraction", -2.5), ("inf", INF),
                   ("negative_inf", -INF), ("nan", NAN)]:
        cases.append(Case(f"edges_{tag}", (POW_EXACT_BASES, e), exact=True))
    for tag, e in [("reciprocal", -1.0), ("rsqrt", -0.5), ("inverse_square", -2.0),
                   ("general", 1.7)]:
        cases.append(Case(f"bases_{tag}", (POW_BASES, e), atol=1e-30, rtol=1e-5))
    return cases


MATH_OPS = [
    math_op("neg", standard_cases("neg", SIGNED, exact_half=True)),
    math_op("sqrt", standard_cases("sqrt", [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, -3.4e38,
                                             -1e-30]) + [
        Case("positive", (rand(4099, low=0.0, high=1e6),), atol=0.0, rtol=1e-6),
        Case("large_and_small", (tensor([3.4e38, 1e-30, 2.0, 1e30, 5e-38]),), atol=0.0,
             rtol=1e-6),
    ], helpers=FLOAT_BITS + ("ieee_roots.wgsl",)),
    math_op("rsqrt", standard_cases("rsqrt", [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, -3.4e38,
                                               -1e-30]) + [
        Case("positive", (rand(4099, low=1e-3, high=1e6),), atol=0.0, rtol=2e-6),
        Case("large_and_small", (tensor([3.4e38, 1e-30, 2.0, 1e30, 5e-38]),), atol=0.0,
             rtol=2e-6),
    ], helpers=FLOAT_BITS + ("ieee_roots.wgsl",)),
    # exp: 88.8 and up overflow; -103.98 and below underflow to 0
    math_op("exp", standard_cases("exp", [NAN, INF, -INF, -0.0, 0.0, 88.8, 100.0, 3.4e38,
                                          -3.4e38, -104.0, -200.0],
                                  tolerance=(FLT_MIN, 2e-7), wide=(-87.0, 88.7)) + [
        Case("near_overflow", (rand(257, low=80.0, high=88.72),), atol=0.0, rtol=2e-7),
        # subnormal results: an adapter that flushes them gives 0 (atol FLT_MIN)
        Case("subnormal_results", (rand(257, low=-103.9, high=-87.4),), atol=FLT_MIN,
             rtol=1e-5),
    ], helpers=FLOAT_BITS + ("exp_reduced.wgsl",)),
    math_op("tanh", standard_cases("tanh", SIGNED + [10.0, -10.0, 100.0, -100.0, 20.0],
                                   tolerance=(1e-7, 1e-6), wide=(-12.0, 12.0)) + [
        Case("near_branch", (rand(1031, low=0.5, high=0.75),), atol=0.0, rtol=5e-7),
        Case("tiny", (rand(257, low=-1e-3, high=1e-3),), atol=0.0, rtol=5e-7),
    ]),
    math_op("sin", standard_cases("sin_cos", [NAN, INF, -INF, -0.0, 0.0, 1e-30, -1e-30],
                                  tolerance=(2e-7, 1e-6), wide=(-100.0, 100.0)) + [
        Case("large_arguments", (rand(4099, low=-1e5, high=1e5),), atol=2e-6, rtol=0.0),
        Case("near_multiples_of_pi", (tensor([3.1415927, -3.1415927, 6.2831855, 1.5707964,
                                              4.712389, 314.15927, 100000.0]),),
             atol=2e-7, rtol=1e-5),
    ], kernel=SIN_COS, overrides={"QUADRANT": "0"}),
    math_op("cos", standard_cases("sin_cos", [NAN, INF, -INF, -0.0, 0.0, 1e-30, -1e-30],
                                  tolerance=(2e-7, 1e-6), wide=(-100.0, 100.0)) + [
        Case("large_arguments", (rand(4099, low=-1e5, high=1e5),), atol=2e-6, rtol=0.0),
        Case("near_odd_multiples_of_half_pi", (tensor([1.5707964, -1.5707964, 4.712389,
                                                       3.1415927, 157.07964]),),
             atol=2e-7, rtol=1e-5),
    ], kernel=SIN_COS, overrides={"QUADRANT": "1"}),
    # torch: -inf * 0 = NaN; x <= -3 gives -0.0; 3.4e38 * 6 overflows to inf
    math_op("hardswish", standard_cases("hardswish", [NAN, INF, -INF, -0.0, 0.0, 3.0, -3.0,
                                                      6.0, -6.0, 100.0, -100.0, 3.4e38,
                                                      -3.4e38],
                                        tolerance=(1e-7, 1e-6), wide=(-5.0, 5.0)),
            helpers=()),
    math_op("clamp", [
        Case("both_4d", (randn(2, 3, 8, 8), -0.5, 0.5), route="clamp", exact=True),
        Case("min_only", (randn(1001), -0.25), exact=True),
        Case("max_only", (randn(7, 13, 3),), kwargs={"max": 0.75}, exact=True),
        Case("int_bounds", (randn(5, 7), -1, 1), exact=True),
        Case("min_above_max", (randn(5, 7), 2.0, 1.0), exact=True),
        Case("partial_invocation", (randn(773 * 4 - 1), -1.0, 1.0), exact=True),
        Case("resize", (randn(4, 64), -0.5), resize={"self": (3, 50)}, exact=True),
        Case("ieee_specials", (CLAMP_SPECIALS, -1.0, 1.0), exact=True),
        Case("zero_bounds", (CLAMP_SPECIALS, 0.0, -0.0), exact=True),
        Case("negative_zero_min", (CLAMP_SPECIALS, -0.0), exact=True),
        Case("infinite_bounds", (CLAMP_SPECIALS, -INF, INF), exact=True),
        Case("nan_min", (CLAMP_SPECIALS, NAN, 1.0), exact=True),
        Case("nan_max", (CLAMP_SPECIALS,), kwargs={"max": NAN}, exact=True),
        Case("rejects_no_bounds", (randn(3, 4),),
             raises="min and max are both None (got None, expected at least one of them)"),
        Case("rejects_int32", (tensor([1, 2, 3], dtype="int32"), 0), raises=REJECTS_INT32),
        *half_cases("clamp", (-0.5, 0.5), exact=True),
    ], kernel=CLAMP, helpers=FLOAT_BITS,
        extra_args=[Scalar("min", optional=True), Scalar("max", optional=True)],
        extra_params={"min_value": f32("min"), "max_value": f32("max"),
                      "has_min": u32("1 if min is not None else 0"),
                      "has_max": u32("1 if max is not None else 0")},
        guards=[Guard("min is not None or max is not None", "min", "and max are both None",
                      got="'None'", expected="at least one of them")]),
    math_op("hardtanh", [
        Case("default_4d", (randn(2, 3, 8, 8),), route="clamp", exact=True),
        Case("bounds", (randn(1001), -0.25, 2.0), exact=True),
        Case("int_bounds", (randn(7, 13, 3), 0, 6), exact=True),
        Case("min_above_max", (randn(5, 7), 2.0, 1.0), exact=True),
        Case("partial_invocation", (randn(773 * 4 - 1),), exact=True),
        Case("resize", (randn(4, 64), -2.0, 2.0), resize={"self": (3, 50)}, exact=True),
        Case("ieee_specials", (CLAMP_SPECIALS,), exact=True),
        Case("zero_bounds", (CLAMP_SPECIALS, -0.0, 0.0), exact=True),
        Case("nan_bound", (CLAMP_SPECIALS, NAN, 1.0), exact=True),
        Case("rejects_int32", (tensor([1, 2, 3], dtype="int32"),), raises=REJECTS_INT32),
        *half_cases("clamp", (-1.0, 2.0), exact=True),
    ], kernel=CLAMP, helpers=FLOAT_BITS,
        extra_args=[Scalar("min_val", default=-1.0), Scalar("max_val", default=1.0)],
        extra_params={"min_value": f32("min_val"), "max_value": f32("max_val"),
                      "has_min": u32("1"), "has_max": u32("1")}),
    math_op("pow", pow_cases(), kernel=unary_kernel("pow_scalar"), target="aten.pow.Tensor_Scalar",
            helpers=FLOAT_BITS + ("exp_reduced.wgsl", "ieee_roots.wgsl"),
            extra_args=[Scalar("exponent")], extra_params={"exponent": f32("exponent")}),
]

OPS += MATH_OPS


# --- log: musl's logf on the bits (ieee_log.wgsl) ----------------------------------------

LOG_TOL = {"atol": 0.0, "rtol": 2e-7}  # about 1 ulp (musl's logf is below 1 ulp)
OPS.append(math_op("log", [
    Case("basic_4d", (rand(2, 3, 8, 8, low=0.01, high=10.0),), route="log", **LOG_TOL),
    Case("odd_length", (rand(1001, low=1e-3, high=1e3),), **LOG_TOL),
    Case("partial_invocation", (rand(773 * 4 - 1, low=0.1, high=100.0),), **LOG_TOL),
    Case("resize", (rand(4, 64, low=0.5, high=8.0),), resize={"self": (3, 50)}, **LOG_TOL),
    # log(+-0) = -inf, log(x < 0) = NaN (-inf too), log(inf) = inf, NaN -> NaN, log(1) = +0
    Case("ieee_specials", (tensor([NAN, -NAN, INF, -INF, -0.0, 0.0, -1.0, -3.4e38, -1e-30,
                                   1.0]),), exact=True),
    Case("finite_specials", (tensor([3.4e38, 1e-30, 1.1754944e-38, 2.0, 0.5, 2.7182817, 10.0,
                                     0.1]),), **LOG_TOL),
    Case("wide_range", (rand(4099, low=1e-3, high=1e3),), **LOG_TOL),
    # near 1 the result is near 0: relative error is measured against |log x| >= 1e-7
    Case("near_one", (rand(1031, low=0.9, high=1.1),), atol=1e-9, rtol=2e-7),
    Case("exponent_range", (tensor([2.0**k * 1.37 for k in range(-125, 127, 3)]),), **LOG_TOL),
    Case("negative_and_positive", (randn(7, 13, 3),), atol=0.0, rtol=2e-7),
    Case("rejects_int32", (tensor([1, 2, 3], dtype="int32"),), raises=REJECTS_INT32),
    *half_cases("log"),
], helpers=FLOAT_BITS + ("ieee_log.wgsl",)))


# --- abs: float32 on the bits, int32 (and int64, held as int32) in two's complement -----

ABS_F32 = unary_kernel("abs")
ABS_I32 = unary_kernel("abs_i32", "vec4<i32>")


INT32_EDGES = [INT32_MIN, INT32_MAX, INT32_MIN + 1, -1, 0, 1, -7, 7]
OPS.append(Op(
    name="abs",
    targets=["aten.abs.default"],
    args=[Tensor("self", (F32, F16, I32)), Output("out", (F32, F16, I32))],
    shapes={"out": "self.dims"},
    resize="dynamic",
    dispatches=[dtype_dispatch(ABS_F32, F32, "float", FLOAT_BITS),
                dtype_dispatch(ABS_I32, I32, "vec4<i32>")],
    cases=[c for c in standard_cases("abs", SIGNED, exact_half=True)
           if c.name != "rejects_int32"] + [
        # |INT32_MIN| wraps to INT32_MIN, as torch's int32 abs
        Case("int32_edges", (tensor(INT32_EDGES, dtype="int32"),), route="abs_i32", exact=True),
        Case("int32_random", (randint(-100000, 100000, 4099, dtype="int32"),), exact=True),
        Case("int32_resize", (randint(-50, 50, 6, 9, dtype="int32"),), resize={"self": (4, 5)},
             exact=True),
        # T5's relative position buckets: an int64 tensor (int32 on the GPU)
        Case("int64_relative_positions", (tensor([[k - q for k in range(12)] for q in range(12)],
                                                 dtype="int64"),), exact=True),
        Case("int64_empty", (randint(0, 5, 0, 3),), exact=True),
        Case("rejects_bool", (tensor([True, False], dtype="bool"),),
             raises="self has an unsupported dtype (got bool, expected float32 or float16 or "
                    "int32)"),
    ],
))


# --- Scalar-operand arithmetic (add.Scalar, sub.Scalar, mul.Scalar) ----------------------

SCALAR_ARITH = unary_kernel("scalar_arith",
                      overrides={"OP": Override("u32", 0)})
ARITH_SPECIALS = tensor([NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 3.4e38, -3.4e38, 2.5, -7.0])


def scalar_arith_op(name: str, operand: str, op_code: int, alpha: bool,
                    extra: list[Case]) -> Op:
    return unary_op(f"{name}_scalar", SCALAR_ARITH, [
        Case("basic_4d", (randn(2, 3, 8, 8), 0.5), route="scalar_arith"),
        Case("odd_length", (randn(1001), -1.25)),
        Case("partial_invocation", (randn(773 * 4 - 1), 3.0)),
        Case("int_operand", (randn(7, 13, 3), 3)),
        Case("resize", (randn(4, 64), 2.0), resize={"self": (3, 50)}),
        Case("ieee_specials", (ARITH_SPECIALS, -2.0), exact=True),
        Case("infinite_operand", (ARITH_SPECIALS, INF), exact=True),
        Case("nan_operand", (ARITH_SPECIALS, NAN), exact=True),
        Case("zero_operand", (ARITH_SPECIALS, -0.0), exact=True),
        # a finite operand past float32's range acts as infinity, as in torch
        Case("operand_beyond_float32", (ARITH_SPECIALS, -1e39), exact=True),
        Case("rejects_int32", (tensor([1, 2, 3], dtype="int32"), 2), raises=REJECTS_INT32),
        *half_cases("scalar_arith", (0.5,)),
    ] + extra, target=f"aten.{name}.Scalar",
        extra_args=[Scalar("other"), *([Scalar("alpha", default=1)] if alpha else [])],
        extra_params={"operand": f32(operand)}, overrides={"OP": str(op_code)})


OPS += [
    scalar_arith_op("add", "alpha * other", 0, True, [
        Case("alpha", (randn(5, 7), 0.75), kwargs={"alpha": -2.0}),
        Case("int_alpha", (randn(5, 7), 1.5), kwargs={"alpha": 3}),
    ]),
    scalar_arith_op("sub", "-(alpha * other)", 0, True, [
        Case("alpha", (randn(5, 7), 0.75), kwargs={"alpha": -2.0}),
        Case("int_alpha", (randn(5, 7), 1.5), kwargs={"alpha": 3}),
    ]),
    scalar_arith_op("mul", "other", 1, False, []),
]
