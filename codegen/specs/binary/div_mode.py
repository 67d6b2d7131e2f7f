"""div.Tensor_mode: self / other rounded toward zero ('trunc') or down ('floor'), or not at
all (None), broadcasting as the binary family does (_family.py).

float32 rounds in a kernel of its own (div_rounding.wgsl), bit for bit as torch: floor
division by torch's own steps (an exact fmod, then a nudged floor), trunc as trunc(x / y);
None is div.Tensor's true division on the float kernel. float16 runs both on their float16
twins: the halves widened exactly, torch's float32 steps, the result rounded to half once
(the exact result rounded). torch's float16 CPU trunc is not one function: its vectorized
path rounds the quotient to half before truncating (-39.3125 / 3.5742 gives -11 in a
tensor of 72 elements, -10 alone), so the cases compare with the exact result. int32 (and int64, which the graph
holds as int32) divides in the integer kernel. A zero integer divisor gives x there: torch
raises, which a GPU kernel cannot (docs/numerics.md); int32's -2147483648 / -1 wraps to
-2147483648 (torch's CPU kernel traps on it)."""

from codegen.language import (F16, F32, I32, Case, Guard, Kernel, Op, Output, Override, Route, Str,
                              Tensor, f32, i32)
from codegen.graph.inputs import INT32_MAX, INT32_MIN, rand, randint, randn, tensor
from codegen.specs.binary._family import (BIG, BINARY, BINARY_I32, ELEMENTWISE, INF, NAN, SLOTS,
                                          broadcast_dispatch)

DIV_ROUNDING = Kernel("div_rounding", workgroup=(128, 1, 1),
                      overrides={"FLOOR": Override("bool", False)},
                      helpers=("divide.wgsl", "../unary/fmod_bits.wgsl"))


def div_mode_op(cases: list[Case]) -> Op:
    """div(self, other, rounding_mode=None | 'trunc' | 'floor'): float32 rounds in a kernel
    of its own (None is div.Tensor's true division); int32 (and int64) divides in the
    integer kernel, whose zero divisor gives x where torch raises."""
    rounded = Route(DIV_ROUNDING, ELEMENTWISE, when="rounding_mode is not None",
                    overrides={"FLOOR": "rounding_mode == 'floor'"})
    return Op(
        name="div_mode",
        targets=["aten.div.Tensor_mode"],
        args=[Tensor("self", (F32, F16, I32), rank=(0, SLOTS)),
              Tensor("other", (F32, F16, I32), rank=(0, SLOTS)),
              Str("rounding_mode", values=("trunc", "floor"), optional=True),
              Output("out", (F32, F16, I32), rank=(0, SLOTS))],
        guards=[
            Guard("broadcasts(self.dims, other.dims)", "other", "does not broadcast with self",
                  got="other.dims", expected="dims equal to or 1 where {self.dims} differs"),
            Guard("other.dtype == self.dtype", "other", "has a different dtype from self",
                  got="other.dtype", expected="{self.dtype}"),
            Guard("self.dtype != 'int32' or rounding_mode is not None", "rounding_mode",
                  "is None for int32 tensors (torch divides them into float32, which is not "
                  "implemented)", got="'None'", expected="trunc or floor"),
        ],
        shapes={"out": "broadcast_shape(self.dims, other.dims)"},
        resize="dynamic",
        dispatches=[broadcast_dispatch("div", BINARY, "float", f32("1.0"), F32,
                                       routes=[rounded], when=f"self.dtype != '{I32}'",
                                       half=True),
                    broadcast_dispatch("div_mode", BINARY_I32, "vec4<i32>", i32("1"), I32)],
        cases=cases,
    )


# floor and trunc differ on each of these pairs somewhere: infinities on either side, NaN,
# signed zeros (a zero quotient takes x / y's sign), zero divisors (x / y), exact
# multiples (the nudge), quotients past 2^23 and past float32
SPECIAL_X = tensor([INF, -INF, NAN, 1.0, -1.0, 0.0, -0.0, 5.0, -5.0, 7.5, -7.5, 1.0, -1.0,
                    BIG, 1e-45, -0.5, 0.5, 6.0, -6.0, 1e30, 0.0, -3.0, 2.0, 1e-30])
SPECIAL_Y = tensor([2.0, 2.0, 1.0, INF, INF, -3.0, 3.0, 0.0, 0.0, -2.5, 2.5, -INF, -INF,
                    1e-30, 3.0, 2.0, -2.0, 3.0, 3.0, 1e-8, 0.0, NAN, -0.0, -BIG])
MULTIPLES_X = tensor([6.0, -6.0, 7.5, -7.5, 0.3, -0.3, 1e10, 16777216.0, 0.7, -0.7, 9.0])
MULTIPLES_Y = tensor([3.0, 3.0, 2.5, 2.5, 0.1, 0.1, 10.0, 3.0, 0.1, -0.1, -0.9])
# float16: quotients past 65504 (inf), subnormal dividends and divisors, signed zeros,
# exact multiples, the half specials
HALF_X = tensor([INF, -INF, NAN, 1.0, -1.0, 0.0, -0.0, 65504.0, -65504.0, 2.0 ** -24, -(2.0 ** -24),
                 60000.0, 7.5, -7.5, 6.0, 0.5, 2.0 ** -14, 1000.0], dtype="float16")
HALF_Y = tensor([2.0, 2.0, 1.0, INF, INF, -3.0, 3.0, 0.5, 0.25, 3.0, 2.0 ** -24, 2.0 ** -10,
                 -2.5, 2.5, 3.0, 0.0, -(2.0 ** -24), 0.1], dtype="float16")
INT_X = tensor([-7, 7, -7, 7, 0, -1, 1, 5, -5, 6, INT32_MAX, INT32_MIN, INT32_MIN + 1, -6],
               dtype="int32")
INT_Y = tensor([2, 2, -2, -2, 3, 3, 3, -3, -3, 3, -2, 7, INT32_MAX, INT32_MIN], dtype="int32")


def div_mode_cases() -> list[Case]:
    wide = (rand(7, 13, 3, low=-50.0, high=50.0), rand(13, 1, low=-4.0, high=4.0))
    return [
        Case("floor_same_shape", (randn(2, 3, 4, 5), randn(2, 3, 4, 5)),
             kwargs={"rounding_mode": "floor"}, route="div_rounding", exact=True),
        Case("trunc_broadcast", (randn(4, 1, 6), randn(3, 1)), kwargs={"rounding_mode": "trunc"},
             exact=True),
        Case("true_division", (randn(5, 6), randn(5, 1)), kwargs={"rounding_mode": None},
             route="binary_broadcast", atol=0.0, rtol=1e-6),
        Case("floor_prime_shape", wide, kwargs={"rounding_mode": "floor"}, exact=True),
        Case("trunc_prime_shape", wide, kwargs={"rounding_mode": "trunc"}, exact=True),
        Case("floor_ieee_specials", (SPECIAL_X, SPECIAL_Y), kwargs={"rounding_mode": "floor"},
             exact=True),
        Case("trunc_ieee_specials", (SPECIAL_X, SPECIAL_Y), kwargs={"rounding_mode": "trunc"},
             exact=True),
        Case("floor_multiples", (MULTIPLES_X, MULTIPLES_Y), kwargs={"rounding_mode": "floor"},
             exact=True),
        Case("trunc_multiples", (MULTIPLES_X, MULTIPLES_Y), kwargs={"rounding_mode": "trunc"},
             exact=True),
        Case("floor_scalar_divisor", (randn(3, 7), tensor(-0.75)),
             kwargs={"rounding_mode": "floor"}, exact=True),
        # 773 vec4s, the last partial: lanes of the second workgroup store 3 or 2 vec4s
        Case("floor_partial_invocation", (randn(773 * 4 - 1), randn(773 * 4 - 1)),
             kwargs={"rounding_mode": "floor"}, exact=True),
        Case("floor_resize", (randn(2, 6, 4), randn(6, 1)), kwargs={"rounding_mode": "floor"},
             resize={"self": (1, 6, 3)}, exact=True),
        Case("int32_floor", (INT_X, INT_Y), kwargs={"rounding_mode": "floor"},
             route="binary_broadcast_i32"),
        Case("int32_trunc", (INT_X, INT_Y), kwargs={"rounding_mode": "trunc"}),
        # a floor_divide of positions by a block size (int64 on the host)
        Case("int64_floor_broadcast", (randint(-1000, 1000, 4, 1, 6), randint(1, 50, 3, 1)),
             kwargs={"rounding_mode": "floor"}),
        Case("int64_trunc_negative_divisors", (randint(-1000, 1000, 5, 9),
                                               randint(-40, -1, 9)),
             kwargs={"rounding_mode": "trunc"}),
        Case("int32_resize", (randint(-99, 99, 2, 6, 4, dtype="int32"),
                              randint(1, 9, 6, 1, dtype="int32")),
             kwargs={"rounding_mode": "floor"}, resize={"self": (1, 6, 3)}),
        Case("rejects_int_true_division", (randint(-5, 5, 3, dtype="int32"),
                                           randint(1, 5, 3, dtype="int32")),
             kwargs={"rounding_mode": None},
             raises="rounding_mode is None for int32 tensors (torch divides them into float32, "
                    "which is not implemented) (got None, expected trunc or floor)"),
        Case("rejects_mixed_dtypes", (randn(3), randint(1, 5, 3, dtype="int32")),
             kwargs={"rounding_mode": "floor"},
             raises="other has a different dtype from self (got int32, expected float32)"),
        Case("rejects_unknown_mode", (randn(3), randn(3)), kwargs={"rounding_mode": "round"},
             raises="rounding_mode is not supported (got round, expected trunc or floor)"),
        Case("no_broadcast", (randn(2, 3), randn(4)), kwargs={"rounding_mode": "trunc"},
             raises="other does not broadcast with self (got [4], expected dims equal to or 1 "
                    "where [2, 3] differs)"),
        Case("rejects_bool", (tensor([True], dtype="bool"), tensor([True], dtype="bool")),
             kwargs={"rounding_mode": "floor"},
             raises="self has an unsupported dtype (got bool, expected float32 or float16 or "
                    "int32)"),
        # float16: the float32 steps on the widened halves, rounded once, so equal to the
        # exact result rounded to half (tolerance 0; quotients past 65504 overflow to inf,
        # subnormal dividends and divisors); torch's float16 trunc differs (module docstring)
        Case("f16_floor", (randn(2, 3, 4, 5, dtype="float16"), randn(2, 3, 4, 5, dtype="float16")),
             kwargs={"rounding_mode": "floor"}, route="div_rounding_f16", atol=0.0, rtol=0.0),
        Case("f16_trunc_broadcast", (rand(4, 1, 6, low=-50.0, high=50.0, dtype="float16"),
                                     rand(3, 1, low=-4.0, high=4.0, dtype="float16")),
             kwargs={"rounding_mode": "trunc"}, route="div_rounding_f16", atol=0.0, rtol=0.0),
        Case("f16_true_division", (randn(5, 6, dtype="float16"), randn(5, 1, dtype="float16")),
             kwargs={"rounding_mode": None}, route="binary_broadcast_f16"),
        Case("f16_floor_specials", (HALF_X, HALF_Y), kwargs={"rounding_mode": "floor"},
             route="div_rounding_f16", atol=0.0, rtol=0.0),
        Case("f16_trunc_specials", (HALF_X, HALF_Y), kwargs={"rounding_mode": "trunc"},
             atol=0.0, rtol=0.0),
        Case("rejects_mixed_floats", (randn(3), randn(3, dtype="float16")),
             kwargs={"rounding_mode": "floor"},
             raises="other has a different dtype from self (got float16, expected float32)"),
    ]


OPS = [div_mode_op(div_mode_cases())]
