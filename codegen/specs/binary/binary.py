"""Broadcasting binary ops (add, sub, mul, div, minimum, maximum): one kernel per element
type, the op picked by an override; pow.Tensor_Tensor (a float32 or float16 base, an
exponent of its dtype or int32) has kernels of its own on the same broadcast indexing (div.Tensor_mode too:
div_mode.py; the shared dispatch is in _family.py).

Dims are right-aligned into eight slots (array<vec4<u32>, 2>) so one rank-agnostic
kernel serves every rank up to 8; a broadcast dim reads with stride 0. Operands of the
same shape take a vec4 path inside the same kernel (a uniform flag, not a route, so a
resize that turns an equal-shape pair into a broadcast one keeps working). int32 tensors
(and int64 ones, which the graph holds as int32) run their own kernel in a dispatch of
their own, so the float kernel stays as it was; both share binary_map.wgsl.
"""

from codegen.language import (F16, F32, I32, Case, Guard, Kernel, Op, Output, Scalar, Tensor, f32,
                              i32)
from codegen.graph.inputs import INT32_MAX, INT32_MIN, rand, randint, randn, tensor
from codegen.specs.binary._family import (BIG, BINARY, BINARY_I32, INF, NAN, SLOTS,
                                          broadcast_dispatch)


def binary_op(name: str, cases: list[Case], alpha: bool, int32: bool = True,
              target: str = "") -> Op:
    """out = self <op> alpha * other, broadcasting, following the live shapes on resize;
    float32 and float16 (the float kernel's float16 twins), and int32 with `int32`."""
    dtypes = (F32, F16, I32) if int32 else (F32, F16)
    guards = [Guard("broadcasts(self.dims, other.dims)", "other", "does not broadcast with self",
                    got="other.dims", expected="dims equal to or 1 where {self.dims} differs"),
              Guard("other.dtype == self.dtype", "other", "has a different dtype from self",
                    got="other.dtype", expected="{self.dtype}")]
    dispatches = [broadcast_dispatch(name, BINARY, "float", f32("alpha" if alpha else "1.0"),
                                     F32, when="self.dtype != 'int32'", half=True)]
    if int32:
        if alpha:
            guards.append(Guard("self.dtype != 'int32' or float(floor(alpha)) == alpha",
                                "alpha", "is not an integer for int32 tensors", got="alpha",
                                expected="an integral alpha"))
        dispatches.append(broadcast_dispatch(name, BINARY_I32, "vec4<i32>",
                                    i32("floor(alpha)" if alpha else "1"), I32))
    return Op(
        name=name,
        targets=[target or f"aten.{name}.Tensor"],
        args=[Tensor("self", dtypes, rank=(0, SLOTS)), Tensor("other", dtypes, rank=(0, SLOTS)),
              *([Scalar("alpha")] if alpha else []), Output("out", dtypes, rank=(0, SLOTS))],
        guards=guards,
        shapes={"out": "broadcast_shape(self.dims, other.dims)"},
        resize="dynamic",
        dispatches=dispatches,
        cases=cases,
    )


# Elementwise pairs of IEEE special values (see docs/numerics.md): inf - inf and 0 * inf
# give NaN, NaN propagates from either side, the sign of a zero result follows IEEE,
# and the largest finite floats overflow to infinity.
SPECIAL_LHS = tensor([INF, INF, -INF, NAN, 1.0, -0.0, -0.0, 0.0, BIG, -BIG, 0.0, 1.0])
SPECIAL_RHS = tensor([INF, -INF, -INF, 1.0, NAN, -0.0, 0.0, -0.0, BIG, BIG, INF, -1.0])
# float16: sums and products past 65504 overflow, subnormal halves (2^-24) and the largest
# finite ones on either side (no mixed-sign zeros: see minimum / maximum below)
HALF = 65504.0
HALF_LHS = tensor([INF, -INF, NAN, 1.0, -0.0, HALF, HALF, -HALF, 2.0 ** -24, 2.0 ** -24, 300.0,
                   0.5, 2.0 ** -14, 1000.0], dtype="float16")
HALF_RHS = tensor([-INF, -INF, 1.0, NAN, -0.0, HALF, -HALF, -1.0, 2.0 ** -24, -0.25, 300.0,
                   3.0, 0.5, -0.001], dtype="float16")


def half_cases() -> list[Case]:
    """float16 tensors: the shader-f16 route (its masked twin runs the packed route), a
    broadcast, the float16 specials (bit for bit with torch's float16 result, which is the
    float32 result rounded) and mixed float dtypes."""
    return [
        Case("f16_same_shape", (randn(2, 3, 4, 5, dtype="float16"),
                                randn(2, 3, 4, 5, dtype="float16")),
             route="binary_broadcast_f16"),
        Case("f16_broadcast", (randn(2, 8, 5, 5, dtype="float16"),
                               randn(2, 8, 1, 1, dtype="float16"))),
        Case("f16_specials", (HALF_LHS, HALF_RHS), exact=True),
        Case("rejects_mixed_floats", (randn(3), randn(3, dtype="float16")),
             raises="other has a different dtype from self (got float16, expected float32)"),
    ]


def common_cases(name: str, int32: bool = True) -> list[Case]:
    return dtype_cases(int32) + half_cases() + [
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
    ]


def dtype_cases(int32: bool) -> list[Case]:
    if not int32:
        return [Case("rejects_int32", (randn(3), randn(3, dtype="int32")),
                     raises="other has an unsupported dtype (got int32, expected float32 or "
                            "float16)")]
    return [
        Case("rejects_mixed_dtypes", (randn(3), randn(3, dtype="int32")),
             raises="other has a different dtype from self (got int32, expected float32)"),
        Case("rejects_bool", (tensor([True, False], dtype="bool"),
                              tensor([True, True], dtype="bool")),
             raises="self has an unsupported dtype (got bool, expected float32 or float16 or "
                    "int32)"),
    ]




def int32_cases(alpha: bool) -> list[Case]:
    """int32 tensors (int64 ones too: the graph holds them as int32), wrapping as torch's
    int32 arithmetic does."""
    cases = [
        Case("int32_same_shape", (randint(-1000, 1000, 3, 5, 7, dtype="int32"),
                                  randint(-1000, 1000, 3, 5, 7, dtype="int32")),
             route="binary_broadcast_i32"),
        Case("int32_broadcast", (randint(-50, 50, 4, 1, 6, dtype="int32"),
                                 randint(-50, 50, 3, 1, dtype="int32"))),
        Case("int32_rows_cross_vec4s", (randint(-9, 9, 5, 6, dtype="int32"),
                                        randint(-9, 9, 5, 1, dtype="int32"))),
        Case("int32_partial_invocation", (randint(-99, 99, 773 * 4 - 1, dtype="int32"),
                                          randint(-99, 99, 773 * 4 - 1, dtype="int32"))),
        Case("int32_wraparound", (tensor([INT32_MAX, INT32_MIN, INT32_MAX, 65536, INT32_MIN, 7],
                                         dtype="int32"),
                                  tensor([1, -1, INT32_MAX, 65536, INT32_MIN, -3], dtype="int32"))),
        Case("int32_resize", (randint(-9, 9, 2, 6, 4, dtype="int32"),
                              randint(-9, 9, 6, 1, dtype="int32")), resize={"self": (1, 6, 3)}),
        Case("int64_small_values", (randint(-1000, 1000, 2, 9), randint(-1000, 1000, 9))),
    ]
    if alpha:
        cases += [
            Case("int32_alpha", (randint(-50, 50, 3, 4, dtype="int32"),
                                 randint(-50, 50, 4, dtype="int32")), kwargs={"alpha": -3}),
            Case("int32_rejects_fractional_alpha",
                 (randint(-5, 5, 3, dtype="int32"), randint(-5, 5, 3, dtype="int32")),
                 kwargs={"alpha": 0.5},
                 raises="alpha is not an integer for int32 tensors (got 0.5, expected an "
                        "integral alpha)"),
        ]
    return cases


# division: x / ±0 = ±inf and 0 / 0 = NaN; x / ±inf = ±0 and inf / inf = NaN
DIVISION_CASES = [
    Case("division_by_zero", (tensor([1.0, -1.0, 0.0, -0.0, NAN, INF, -INF, 2.5, -3.0]),
                              tensor([0.0, 0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, -0.0])),
         exact=True),
    Case("infinite_divisor", (tensor([1.0, -1.0, 0.0, BIG, INF, NAN, -INF]),
                              tensor([INF, INF, -INF, -INF, INF, INF, -INF])), exact=True),
    # divisors above 2^126, where Vulkan leaves division undefined (normal results only:
    # adapters may flush subnormals, docs/numerics.md)
    Case("huge_divisors", (tensor([1e30, BIG, -1e30, 5e20, -3.0e38, 7.0]),
                           tensor([3e38, 2e38, 1e37, -9e37, 1.5e38, -2.5e38])),
         atol=0.0, rtol=1e-6),
    Case("accuracy", (randn(4099), randn(4099)), atol=0.0, rtol=1e-6),
]


# --- pow.Tensor_Tensor --------------------------------------------------------------------

POW_HELPERS = ("../unary/float_bits.wgsl", "../unary/exp_reduced.wgsl", "pow_ieee.wgsl")
POW_TENSOR = Kernel("pow_tensor", workgroup=(128, 1, 1), helpers=POW_HELPERS)
# the int32 exponent: the same body over an int32 rhs binding (converted as torch promotes)
POW_TENSOR_I32 = POW_TENSOR.variant("pow_tensor_i32")

# C99 pow's edges: bases and exponents whose every pair has an exact result (0, ±1, ±inf,
# NaN, x, x * x), all pairs as two broadcast operands and as equal shapes; then every pair
# of finite values too, within a few ulp
EDGE_BASES = [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0]
EDGE_EXPONENTS = [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -3.0, 2.5, 1e30,
                  -1e30]
VALUE_BASES = [0.5, -0.5, 2.0, -2.0, 3.0, -2.5, 1e-3, 7.5e3]
VALUE_EXPONENTS = [NAN, INF, -INF, -0.0, 0.0, 1.0, 2.0]


def _pairs(bases: list, exponents: list, name: str, **tol) -> list[Case]:
    return [Case(name, (tensor([[b] for b in bases]), tensor(exponents)), **tol),
            Case(f"{name}_same_shape", (tensor([[b] * len(exponents) for b in bases]),
                                        tensor([exponents] * len(bases))), **tol)]


def pow_cases() -> list[Case]:
    return _pairs(EDGE_BASES, EDGE_EXPONENTS, "ieee_specials", exact=True) + _pairs(
        VALUE_BASES, VALUE_EXPONENTS, "ieee_exponents", exact=True) + [
        Case("ieee_values", (tensor([[b] for b in VALUE_BASES]),
                             tensor([-1.0, 0.5, -0.5, 3.0, -3.0, 2.5, -2.5, 1e30, -1e30])),
             atol=0.0, rtol=2e-6),
        Case("route_float_exponent", (tensor([[b] for b in VALUE_BASES]), tensor([2.0, 1.0])),
             exact=True, route="pow_tensor"),
        Case("general", (rand(3, 5, 7, low=0.01, high=4.0), rand(3, 5, 7, low=-3.0, high=3.0)),
             atol=1e-6, rtol=1e-5),
        Case("broadcast_rows", (rand(4, 1, 6, low=0.1, high=3.0), rand(5, 1, low=-4.0, high=4.0)),
             atol=1e-6, rtol=1e-5),
        Case("scalar_base", (tensor(0.0625), tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])),
             atol=0.0, rtol=2e-6),
        Case("negative_bases", (rand(1031, low=-9.0, high=9.0),
                                randint(-6, 7, 1031, dtype="float32")), atol=1e-6, rtol=2e-5),
        Case("negative_bases_fraction", (rand(67, low=-9.0, high=-0.1), tensor(1.25)),
             exact=True),
        Case("wide_range", (rand(4099, low=0.0, high=60.0), rand(4099, low=-21.0, high=21.0)),
             atol=1e-30, rtol=2e-5),
        Case("overflow_underflow", (tensor([3.4e38, -1e20, 1e20, 1e-20, -1e-20, 2.0, 2.0, 1e20]),
                                    tensor([5.0, 5.0, -3.0, 5.0, 3.0, 128.0, -160.0, 2.0])),
             exact=True),
        # 773 vec4s, the last partial: lanes of the second workgroup store 3 or 2 vec4s
        Case("partial_invocation", (rand(773 * 4 - 1, low=0.1, high=2.0),
                                    rand(773 * 4 - 1, low=-2.0, high=2.0)), atol=1e-6, rtol=1e-5),
        Case("resize", (rand(2, 6, 4, low=0.1, high=2.0), rand(6, 1, low=-2.0, high=2.0)),
             resize={"self": (1, 6, 3)}, atol=1e-6, rtol=1e-5),
        # BLOOM's ALiBi slopes: a 0-d float32 base to the powers arange(1, n + 1) (int32)
        Case("int32_exponent", (tensor(0.0625), tensor([1, 2, 3, 4, 5, 6, 7, 8], dtype="int32")),
             atol=0.0, rtol=2e-6, route="pow_tensor_i32"),
        Case("int32_exponent_specials",
             (tensor([[b] for b in EDGE_BASES]),
              tensor([0, 1, -1, 2, -2, 3, -3, 127, -149], dtype="int32")),
             exact=True),
        Case("int32_exponent_values", (tensor([[b] for b in VALUE_BASES]),
                                       tensor([0, 1, -1, 2, -2, 3, -3, 9, -9], dtype="int32")),
             atol=0.0, rtol=1e-5),  # |e ln x| up to 62: a few ulp of ln x, times 62
        Case("int64_exponent", (rand(3, 8, low=-3.0, high=3.0), randint(-5, 6, 8)),
             atol=1e-6, rtol=2e-5),
        Case("rejects_int32_base", (tensor([1, 2, 3], dtype="int32"), tensor([1.0, 2.0, 3.0])),
             raises="self has an unsupported dtype (got int32, expected float32 or float16)"),
        Case("no_broadcast", (randn(2, 3), randn(4)),
             raises="exponent does not broadcast with self (got [4], expected dims equal to or "
                    "1 where [2, 3] differs)"),
    ]


def pow_tensor_op() -> Op:
    """pow.Tensor_Tensor: a float32 or float16 self to an exponent of its dtype or int32,
    broadcasting (float16 on the kernels' twins: pow in f32, rounded once)."""
    dispatches = [
        # named by the exponent's dtype: PowTensorFloat32Params, PowTensorInt32Params
        broadcast_dispatch("pow", kernel, "float", f32("1.0"), dtype, other_elem=other_elem,
                           when=when, half=True)
        for kernel, other_elem, dtype, when in [
            (POW_TENSOR, "", F32, f"exponent.dtype != '{I32}'"),
            (POW_TENSOR_I32, "vec4<i32>", I32, f"exponent.dtype == '{I32}'")]]
    return Op(
        name="pow_tensor",
        targets=["aten.pow.Tensor_Tensor"],
        args=[Tensor("self", (F32, F16), rank=(0, SLOTS)),
              Tensor("exponent", (F32, F16, I32), rank=(0, SLOTS)),
              Output("out", (F32, F16), rank=(0, SLOTS))],
        guards=[Guard("broadcasts(self.dims, exponent.dims)", "exponent",
                      "does not broadcast with self", got="exponent.dims",
                      expected="dims equal to or 1 where {self.dims} differs"),
                Guard(f"exponent.dtype == self.dtype or exponent.dtype == '{I32}'", "exponent",
                      "has a float dtype other than self's", got="exponent.dtype",
                      expected="{self.dtype} or int32")],
        shapes={"out": "broadcast_shape(self.dims, exponent.dims)"},
        resize="dynamic",
        dispatches=dispatches,
        cases=pow_cases() + half_pow_cases(),
    )


# float16 bases and exponents: results past 65504 overflow (2^16, 256^2, (-2)^17), exact
# subnormal results (0.5^24 = 2^-24, (2^-12)^2) and the half specials
HALF_BASES = tensor([2.0, 256.0, -2.0, 2.0 ** -12, 0.5, 65504.0, 2.0 ** -24, 0.0, NAN, -INF,
                     300.0, 0.5], dtype="float16")
HALF_EXPONENTS = tensor([16.0, 2.0, 17.0, 2.0, 24.0, 1.0, 1.0, -1.0, 0.0, 3.0, 2.0, 26.0],
                        dtype="float16")


def half_pow_cases() -> list[Case]:
    return [
        Case("f16_general", (rand(3, 5, 7, low=0.01, high=4.0, dtype="float16"),
                             rand(3, 5, 7, low=-3.0, high=3.0, dtype="float16")),
             route="pow_tensor_f16"),
        Case("f16_broadcast", (rand(4, 1, 6, low=0.1, high=3.0, dtype="float16"),
                               rand(5, 1, low=-4.0, high=4.0, dtype="float16"))),
        Case("f16_specials", (HALF_BASES, HALF_EXPONENTS), route="pow_tensor_f16", exact=True),
        Case("f16_specials_broadcast", (tensor([[b] for b in [2.0, -2.0, 0.5, 0.0, -0.0, 4.0]],
                                               dtype="float16"),
                                        tensor([16.0, 15.0, -1.0, 24.0, 0.5], dtype="float16")),
             exact=True),
        # BLOOM's ALiBi slopes in float16: a 0-d base to int32 powers, down to subnormal
        # (2^-20, 2^-24) and zero (2^-28 rounds to 0)
        Case("f16_int32_exponent", (tensor(0.0625, dtype="float16"),
                                    tensor([1, 2, 3, 4, 5, 6, 7, 8], dtype="int32")),
             route="pow_tensor_i32_f16", exact=True),
        Case("f16_int64_exponent", (rand(3, 8, low=-3.0, high=3.0, dtype="float16"),
                                    randint(-5, 6, 8))),
        Case("rejects_mixed_floats", (randn(3), randn(3, dtype="float16")),
             raises="exponent has a float dtype other than self's (got float16, expected "
                    "float32 or int32)"),
    ]


OPS = [
    binary_op("add", common_cases("add") + int32_cases(alpha=True) + [
        Case("alpha_double", (randn(2, 3), randn(3)), kwargs={"alpha": 0.5}),
        Case("alpha_int", (randn(4, 4), randn(4, 1)), kwargs={"alpha": 3}),
    ], alpha=True),
    binary_op("sub", common_cases("sub") + int32_cases(alpha=True) + [
        Case("alpha_double", (randn(2, 3, 4), randn(4)), kwargs={"alpha": -1.5}),
        Case("alpha_int", (randn(4, 4), randn(1, 4)), kwargs={"alpha": 2}),
    ], alpha=True),
    binary_op("mul", common_cases("mul") + int32_cases(alpha=False), alpha=False),
    binary_op("div", common_cases("div", int32=False) + DIVISION_CASES, alpha=False,
              int32=False),
    pow_tensor_op(),
]


# minimum / maximum: NaN from either side wins (torch). Of -0.0 and +0.0 the kernel gives
# minimum -0.0 and maximum +0.0 in either order (IEEE 754-2019); torch's CPU kernel gives
# other's zero on its vectorized path and self's on its scalar one, so the bit-exact pairs
# hold no mixed-sign zeros and `signed_zeros` compares values (-0.0 == 0.0).
# Decided on integer keys, never by a float min/max, which may drop a NaN.
MIN_MAX_LHS = tensor([NAN, 1.0, NAN, -0.0, 0.0, INF, -INF, INF, BIG, -BIG, 1e-30, -1e-30,
                      2.5, -2.5, -NAN, 7.0, -INF, 0.0])
MIN_MAX_RHS = tensor([1.0, NAN, NAN, -0.0, 0.0, -INF, INF, NAN, -BIG, BIG, -1e-30, 1e-30,
                      2.5, -7.0, INF, -NAN, NAN, -1e-30])
SIGNED_ZEROS = (tensor([-0.0, 0.0, -0.0, 0.0]), tensor([0.0, -0.0, -0.0, 0.0]))


def min_max_cases() -> list[Case]:
    shared = [c for c in common_cases("") if c.name != "ieee_specials"]  # has mixed zeros
    return shared + int32_cases(alpha=False) + [
        Case("nan_broadcast_self", (tensor(NAN), randn(3, 4)), exact=True),
        Case("signed_zeros", SIGNED_ZEROS, atol=0.0, rtol=0.0),
        Case("signed_zeros_broadcast", (tensor([[-0.0], [0.0]]), tensor([0.0, -0.0, 1.0, -1.0])),
             atol=0.0, rtol=0.0),
        Case("int32_extremes",
             (tensor([INT32_MAX, INT32_MIN, INT32_MIN, -1, 0, 5], dtype="int32"),
              tensor([INT32_MIN, INT32_MAX, -1, INT32_MIN, -0, -5], dtype="int32")),
             exact=True),
        Case("int64_relative_buckets", (randint(-20, 20, 12, 12), tensor(7, dtype="int64"))),
    ]


OPS += [
    binary_op("minimum", [Case("ieee_specials", (MIN_MAX_LHS, MIN_MAX_RHS), exact=True)]
              + min_max_cases(), alpha=False, target="aten.minimum.default"),
    binary_op("maximum", [Case("ieee_specials", (MIN_MAX_LHS, MIN_MAX_RHS), exact=True)]
              + min_max_cases(), alpha=False, target="aten.maximum.default"),
]
