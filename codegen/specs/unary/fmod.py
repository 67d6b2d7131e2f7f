"""fmod.Scalar: C's fmod (the result has the dividend's sign), float32, float16 and int32,
one kernel per dtype on the unary family's entry point (_family.py). float32 moves as
words; float16 runs on the float16 twins of a variant of the same body that reads the
tensors through views (halves widened exactly, the divisor rounded to half first as torch
converts the Scalar to the tensor's dtype; the remainder of two halves is a half, so the
result is exact).

torch.roll decomposes into index_select over (arange + shift) fmod n (Swin's shifted
windows): an int64 tensor, which the graph holds as int32."""

import dataclasses

from codegen.language import (F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard, Op,
                              Output, Route, Scalar, Tensor, f32, half_routes, i32, u32)
from codegen.graph.inputs import INT32_MAX, INT32_MIN, rand, randint, randn, tensor
from codegen.specs.unary._family import ENTRY, INF, NAN, dtype_dispatch, unary_kernel

FMOD = unary_kernel("fmod_scalar", "vec4<u32>", consts={"HALF_DIVISOR": "false"},
                    helpers=("fmod_bits.wgsl", "../common/half_bits.wgsl"))
# the float16 tensors' kernel: the body over views (only its float16 twins are routed)
FMOD_HALF = FMOD.variant("fmod_scalar_half", aliases={"Vec": "vec4<f32>"},
                         consts={"HALF_DIVISOR": "true"})
FMOD_I32 = unary_kernel("fmod_scalar_i32", "vec4<i32>")
FLT_MAX, DBL_MAX = 3.4028234663852886e38, 1.7976931348623157e308


FMOD_SPECIALS = tensor([NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 2.5, -2.5, 7.5, -7.5, 3.4e38,
                        -3.4e38, 1e-30, -1e-45, 5.0, -NAN])
# x / d far beyond 2^24: a naive x - trunc(x / d) * d loses every bit of these
HUGE_QUOTIENTS = tensor([3.4e38, -3.4e38, 1e30, -1e30, 16777217.0, 123456.789, -98765.4321,
                         1e10, 2.0**100, -2.0**-100])
# subnormal dividends, divisors and results (kept: the kernel never computes on floats)
SUBNORMALS = tensor([1e-45, -1e-45, 3e-39, -3e-39, 1.1754942e-38, 1e-38, 1.0, -1.0, 1e-30,
                     5e-40])

# the shader-f16 twin, then the packed one (the dispatch takes float16 tensors only, so
# the packed twin is its fallback)
_SHADER_F16, _PACKED = half_routes(
    [Route(FMOD_HALF, Elementwise("ceil_div(out.numel, 4)", per_invocation=4))], "self")
HALF_ROUTES = [_SHADER_F16, dataclasses.replace(_PACKED, when="")]
HALF_SPECIALS = tensor([NAN, INF, -INF, -0.0, 0.0, 65504.0, -65504.0, 2.0 ** -24, -(2.0 ** -24),
                        2.0 ** -14, 7.5, -7.5, 1000.0, -3.0, 2.0 ** -10, 60000.0], dtype="float16")

FMOD_OP = Op(
    name="fmod_scalar",
    targets=["aten.fmod.Scalar"],
    args=[Tensor("self", (F32, F16, I32)), Scalar("other"), Output("out", (F32, F16, I32))],
    guards=[
        Guard("out.dtype == self.dtype", "out", "has a different dtype from self",
              got="out.dtype", expected="{self.dtype}; torch gives float32 for an integer "
                                        "tensor and a float divisor, which is not implemented"),
        Guard(f"self.dtype != 'float32' or abs(other) <= {FLT_MAX} or "
              f"not abs(other) <= {DBL_MAX}", "other", "overflows float32", got="other",
              expected=f"a divisor within +-{FLT_MAX}, inf or nan"),
        Guard("self.dtype != 'int32' or other != 0.0", "other",
              "is zero for an integer tensor (torch raises ZeroDivisionError)", got="other",
              expected="a non-zero divisor"),
        Guard(f"self.dtype != 'int32' or (other >= {float(INT32_MIN)} and "
              f"other <= {float(INT32_MAX)})", "other",
              "does not fit int32 (int64 tensors are int32 on the GPU)", got="other",
              expected=f"a divisor in {INT32_MIN}..{INT32_MAX}"),
    ],
    shapes={"out": "self.dims"},
    resize="dynamic",
    dispatches=[
        # float32 moves as u32 words (fmod_scalar works on the bits)
        dtype_dispatch(FMOD, F32, "vec4<u32>", divisor=f32("other")),
        Dispatch(params={"num_vec4": u32("ceil_div(out.numel, 4)"), "divisor": f32("other")},
                 helpers=ENTRY, name=F16, when=f"self.dtype == '{F16}'",
                 bindings=[Bind("input", "self", view="vec4"),
                           Bind("output", "out", write=True, view="vec4")],
                 routes=HALF_ROUTES),
        # an integer tensor's divisor is an Int (a float one makes the result float32)
        dtype_dispatch(FMOD_I32, I32, "vec4<i32>", divisor=i32("floor(other)")),
    ],
    cases=[
        # float32: bit for bit against torch's float32 fmod (the divisor rounded to float32)
        Case("basic_4d", (randn(2, 3, 8, 8), 0.7), route="fmod_scalar", exact=True),
        Case("negative_dividends", (rand(4099, low=-100.0, high=100.0), 3.0), exact=True),
        Case("negative_divisor", (rand(1031, low=-50.0, high=50.0), -2.5), exact=True),
        Case("int_divisor", (rand(7, 13, 3, low=-40.0, high=40.0), 16), exact=True),
        Case("partial_invocation", (rand(773 * 4 - 1, low=-9.0, high=9.0), 1.25), exact=True),
        Case("resize", (rand(4, 64, low=-20.0, high=20.0), 3.5), resize={"self": (3, 50)},
             exact=True),
        Case("empty", (randn(0, 3), 2.0), exact=True),
        # NaN, +-inf x -> NaN; +-0 -> +-0; -7.5 fmod 2.5 = -0.0 (the dividend's sign)
        Case("ieee_specials", (FMOD_SPECIALS, 2.5), exact=True),
        Case("zero_divisor", (FMOD_SPECIALS, 0.0), exact=True),
        Case("negative_zero_divisor", (FMOD_SPECIALS, -0.0), exact=True),
        Case("infinite_divisor", (FMOD_SPECIALS, -INF), exact=True),
        Case("nan_divisor", (FMOD_SPECIALS, NAN), exact=True),
        Case("largest_divisor", (FMOD_SPECIALS, 3.4e38), exact=True),
        Case("huge_quotients", (HUGE_QUOTIENTS, 0.1), exact=True),
        Case("huge_quotients_subnormal_divisor", (HUGE_QUOTIENTS, 1e-45), exact=True),
        Case("subnormals", (SUBNORMALS, 3e-39), exact=True),
        Case("subnormal_results", (SUBNORMALS, 1.17e-38), exact=True),
        Case("rejects_bool", (tensor([True, False], dtype="bool"), 2),
             raises="self has an unsupported dtype (got bool, expected float32 or float16 or "
                    "int32)"),
        # float16: exact remainders of halves (the divisor rounded to half: 0.7 is
        # 0.7001953125, 7e4 is inf); subnormal dividends, divisors and results; 65504
        Case("f16", (rand(2, 3, 8, 9, low=-100.0, high=100.0, dtype="float16"), 0.7),
             route="fmod_scalar_half_f16", exact=True),
        Case("f16_specials", (HALF_SPECIALS, 2.5), route="fmod_scalar_half_f16", exact=True),
        Case("f16_subnormal_divisor", (HALF_SPECIALS, 3 * 2.0 ** -24), exact=True),
        Case("f16_divisor_past_half", (HALF_SPECIALS, 7e4), exact=True),
        Case("f16_tiny_divisor", (HALF_SPECIALS, 1e-7), exact=True),
        Case("f16_zero_divisor", (HALF_SPECIALS, 0.0), exact=True),
        Case("f16_odd_length", (rand(1001, low=-9.0, high=9.0, dtype="float16"), -1.25),
             exact=True),
        Case("divisor_overflows_float32", (randn(3), 1e39),
             raises=f"other overflows float32 (got 1e+39, expected a divisor within "
                    f"+-{FLT_MAX}, inf or nan)"),
        # int64 (int32 on the GPU) and int32: C's truncating remainder
        Case("roll_index", (tensor([k + 2 for k in range(16)], dtype="int64"), 16),
             route="fmod_scalar_i32", exact=True),
        Case("roll_index_negative_shift", (tensor([k - 6 for k in range(16)], dtype="int64"), 16),
             exact=True),
        Case("int_signs", (tensor([-7, 7, -6, 6, 0, -1, 1, -3, 3, 2], dtype="int32"), 3),
             exact=True),
        Case("int_negative_divisor", (tensor([-7, 7, -6, 6, 0, -1, 1, -3, 3], dtype="int32"),
                                      -3), exact=True),
        Case("int_extremes", (tensor([INT32_MIN, INT32_MAX, INT32_MIN + 1, -5, 5, 0],
                                     dtype="int64"), -1), exact=True),
        Case("int_most_negative_divisor", (tensor([INT32_MIN, INT32_MAX, -5, 5, 0],
                                                  dtype="int64"), INT32_MIN), exact=True),
        Case("int_largest_divisor", (tensor([INT32_MIN, INT32_MAX, -5, 5, 0], dtype="int64"),
                                     INT32_MAX), exact=True),
        Case("int_random", (randint(-100000, 100000, 4099, dtype="int32"), 97), exact=True),
        Case("int_resize", (randint(-50, 50, 6, 9), 7), resize={"self": (4, 5)}, exact=True),
        Case("int_empty", (randint(0, 5, 0), 4), exact=True),
        Case("int_zero_divisor", (randint(-5, 5, 4), 0),
             raises="other is zero for an integer tensor (torch raises ZeroDivisionError) "
                    "(got 0.0, expected a non-zero divisor)"),
        Case("int_divisor_beyond_int32", (randint(-5, 5, 4), 2**40),
             raises="other does not fit int32 (int64 tensors are int32 on the GPU) (got "
                    "1099511627776"),
        Case("int_float_divisor", (randint(-5, 5, 4), 2.5),
             raises="out has a different dtype from self (got float32, expected int32; torch "
                    "gives float32 for an integer tensor and a float divisor, which is not "
                    "implemented)"),
    ],
)

OPS = [FMOD_OP]
