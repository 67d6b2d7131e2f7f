"""Creation ops: full, full_like, zeros, ones, zeros_like, ones_like, scalar_tensor
(one value everywhere) and arange.start_step (start + i * step), into float32, float16,
int32/int64 (int32 on the GPU) or bool (not arange) outputs, as the graph's output
dtype says (torch decides it from `dtype` or from the values; a float16 graph of the
Vulkan partitioner's force_fp16 holds float16 outputs where torch's dtype says float32).

One kernel writes whole 16-byte units of the output. Values torch refuses (a float
fill beyond its dtype's range, an int fill beyond int32's) are refused by guards, as are
arange's zero steps, unbounded ranges and ranges the step moves away from; an integer
arange needs integral start, end and step (torch then agrees with itself on the length).
"""

from dataclasses import replace

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Device, Dispatch, Elementwise,
                              Guard, Ignored, IntList, Kernel, Layout, MemoryFormat, Op, Output,
                              Override, Route, Scalar, ScalarType, Tensor, f32, i32, u32)
from codegen.graph.inputs import randint, randn, torch_constant, torch_dtype

FILL_RANGE = Kernel("fill_range", workgroup=(128, 1, 1),
                    overrides={"KIND": Override("u32", 0), "FILL": Override("bool", True)},
                    helpers=("../common/half_bits.wgsl",))
KIND = ("0 if out.dtype == 'float32' else (1 if out.dtype == 'int32' else "
        "(3 if out.dtype == 'float16' else 2))")
FLOATS = "out.dtype == 'float32' or out.dtype == 'float16'"
# elements per 16-byte unit of the output
PER_UNIT = "16 if out.dtype == 'bool' else (8 if out.dtype == 'float16' else 4)"
DTYPES = (F32, F16, I32, BOOL)
NAN, INF = float("nan"), float("inf")
DBL_MAX, FLT_MAX = 1.7976931348623157e308, 3.4028234663852886e38


def trunc(v: str) -> str:
    """The integer `v` truncates to (toward zero, as torch converts a Scalar)."""
    return f"(floor({v}) if {v} >= 0.0 else -floor(-{v}))"


def creation_args(like: bool) -> list:
    return [ScalarType("dtype"), Layout("layout"), Device("device"),
            Ignored("pin_memory", accepts=(None, False)),
            *([MemoryFormat("memory_format")] if like else [])]


def value_guards(v: str) -> list[Guard]:
    """A fill value the output's dtype holds (torch refuses the others)."""
    return [
        Guard(f"out.dtype != 'float32' or abs({v}) <= {FLT_MAX} or not abs({v}) <= {DBL_MAX}",
              v, "overflows float32", got=v,
              expected=f"a value within +-{FLT_MAX}, inf or nan"),
        Guard(f"out.dtype != 'float16' or abs({v}) <= 65504.0 or not abs({v}) <= {DBL_MAX}",
              v, "overflows float16", got=v, expected="a value within +-65504, inf or nan"),
        Guard(f"out.dtype != 'int32' or ({v} >= -2147483648.0 and {v} <= 2147483647.0)", v,
              "does not fit int32 (int64 tensors are int32 on the GPU)", got=v,
              expected="a finite value in -2147483648..2147483647"),
    ]


def creation_op(name: str, target: str, args: list, shape: str, resize: str, cases: list[Case],
                start: str, step: str = "0.0", fill: bool = True, guards=(), let=None,
                out_dtypes=DTYPES, exact: bool = True) -> Op:
    start_int = f"(1 if {start} != 0.0 else 0) if out.dtype == 'bool' else " \
                f"({trunc(start)} if out.dtype == 'int32' else 0)"
    return Op(
        name=name,
        targets=[target],
        args=[*args, Output("out", out_dtypes)],
        let=let or {},
        guards=list(guards),
        shapes={"out": shape},
        resize=resize,
        dispatches=[Dispatch(
            params={
                "num_units": u32(f"ceil_div(out.numel, {PER_UNIT})"),
                "start": f32(f"{start} if {FLOATS} else 0.0"),
                "step": f32(step),
                "start_int": i32(start_int),
                "step_int": i32(f"{trunc(step)} if out.dtype == 'int32' else 0"),
            },
            bindings=[Bind("output", "out", write=True, elem="vec4<u32>")],
            routes=[Route(FILL_RANGE, Elementwise(f"ceil_div(out.numel, {PER_UNIT})",
                                                  per_invocation=4),
                          overrides={"KIND": KIND, "FILL": "True" if fill else "False"})],
        )],
        cases=[replace(c, exact=True) if exact and not c.raises else c for c in cases],
    )


def fill_cases(prefix: tuple, route: bool = False) -> list[Case]:
    """Cases of an op called as (*prefix, fill_value)."""
    return [
        Case("float", (*prefix, 2.5), route="fill_range" if route else ""),
        Case("minus_inf", (*prefix, -INF)),
        Case("inf", (*prefix, INF)),
        Case("nan", (*prefix, NAN)),
        Case("negative_zero", (*prefix, -0.0)),
        Case("int_value", (*prefix, 7)),  # torch makes an int64 tensor
        Case("int32_dtype", (*prefix, -2.9), kwargs={"dtype": torch_dtype("int32")}),
        Case("bool_value", (*prefix, True)),
        Case("bool_dtype", (*prefix, NAN), kwargs={"dtype": torch_dtype("bool")}),
        Case("bool_zero", (*prefix, 0.0), kwargs={"dtype": torch_dtype("bool")}),
        Case("overflows_float32", (*prefix, 1e39),
             raises="fill_value overflows float32 (got 1e+39, expected a value within "
                    "+-3.4028234663852886e+38, inf or nan)"),
        Case("overflows_int32", (*prefix, 2.0**40), kwargs={"dtype": torch_dtype("int64")},
             raises="fill_value does not fit int32 (int64 tensors are int32 on the GPU) (got "
                    "1099511627776"),
        # float16: the fill rounded once (-inf stays -inf); past 65504 torch refuses it
        Case("float16", (*prefix, 2.1), kwargs={"dtype": torch_dtype("float16")}),
        Case("float16_minus_inf", (*prefix, -INF), kwargs={"dtype": torch_dtype("float16")}),
        Case("float16_subnormal", (*prefix, -3e-7), kwargs={"dtype": torch_dtype("float16")}),
        Case("overflows_float16", (*prefix, 65505.0), kwargs={"dtype": torch_dtype("float16")},
             raises="fill_value overflows float16 (got 65505.0, expected a value within "
                    "+-65504, inf or nan)"),
        Case("rejects_uint8", (*prefix, 1.0), kwargs={"dtype": torch_dtype("uint8")},
             raises="dtype is not supported (got uint8, expected None or bool or float16 or "
                    "float32 or int32)"),
        Case("rejects_pinned", (*prefix, 1.0), kwargs={"pin_memory": True},
             raises="pin_memory is not supported (got True, expected None or False)"),
    ]


# the length torch gives, ceil((end - start) / step), once the guards hold
ARANGE_LETS = {"length": f"-floor((start - end) / step) if step != 0.0 and abs(start) <= "
                         f"{DBL_MAX} and abs(end) <= {DBL_MAX} else 0"}
ARANGE_GUARDS = [
    Guard(f"abs(start) <= {DBL_MAX}", "start", "is not finite", got="start",
          expected="a finite number"),
    Guard(f"abs(end) <= {DBL_MAX}", "end", "is not finite", got="end",
          expected="a finite number"),
    Guard("step != 0.0", "step", "is zero", got="step", expected="a non-zero step"),
    Guard("(end - start) / step >= 0.0", "end", "cannot be reached from start with this step",
          got="end", expected="end >= {start} for a positive step, end <= {start} for a "
                              "negative one"),
    *(Guard(f"out.dtype != 'int32' or floor({v}) == {v}", v,
            "is not integral for an integer output", got=v, expected="an integer")
      for v in ("start", "end", "step")),
    Guard("out.dtype != 'int32' or (abs(start) <= 2147483647.0 and "
          "abs(start + float(length - 1) * step) <= 2147483647.0)", "end",
          "gives values beyond int32 (int64 tensors are int32 on the GPU)", got="end",
          expected="a range within -2147483647..2147483647"),
]

SIZE_GUARD = Guard("len(size) == 0 or min(size) >= 0", "size", "has a negative dim", got="size",
                   expected="sizes >= 0")


def size_op(name: str, value: str, cases: list[Case]) -> Op:
    """zeros/ones: full with a fixed value."""
    return creation_op(name, f"aten.{name}.default", [IntList("size"), *creation_args(False)],
                       "size", "static", cases, start=value, guards=[SIZE_GUARD])


def like_op(name: str, value: str, cases: list[Case]) -> Op:
    """zeros_like/ones_like: full_like with a fixed value."""
    return creation_op(name, f"aten.{name}.default",
                       [Tensor("self", DTYPES), *creation_args(True)],
                       "self.dims", "dynamic", cases, start=value)


def fixed_value_cases(prefix: tuple, resize: dict | None = None) -> list[Case]:
    cases = [
        Case("float", prefix, route="fill_range"),
        Case("int64_dtype", prefix, kwargs={"dtype": torch_dtype("int64")}),
        Case("bool_dtype", prefix, kwargs={"dtype": torch_dtype("bool")}),
        Case("float16_dtype", prefix, kwargs={"dtype": torch_dtype("float16")}),
        Case("rejects_uint8", prefix, kwargs={"dtype": torch_dtype("uint8")},
             raises="dtype is not supported (got uint8, expected None or bool or float16 or "
                    "float32 or int32)"),
    ]
    if resize:
        cases.append(Case("resize", prefix, resize=resize))
    else:
        cases.append(Case("negative_size", ([2, -1],),
                          raises="size has a negative dim (got [2, -1], expected sizes >= 0)"))
    return cases


OPS = [
    creation_op("full", "aten.full.default",
                [IntList("size"), Scalar("fill_value"), *creation_args(False)],
                "size", "static", fill_cases(([5, 7],), route=True) + [
                    Case("causal_mask_square", ([7, 7], -INF)),
                    Case("scalar_output", ([], 1.5)),
                    Case("empty", ([0, 3], 1.0)),
                    # 2 workgroups of units, the last partial: 4099 elements, 4099 bools
                    Case("prime_length", ([4099], 0.25)),
                    Case("prime_length_bool", ([4099], 1.0), kwargs={"dtype": torch_dtype("bool")}),
                    Case("negative_size", ([2, -1], 1.0),
                         raises="size has a negative dim (got [2, -1], expected sizes >= 0)"),
                ], start="fill_value", guards=[SIZE_GUARD, *value_guards("fill_value")]),
    creation_op("full_like", "aten.full_like.default",
                [Tensor("self", DTYPES), Scalar("fill_value"), *creation_args(True)],
                "self.dims", "dynamic", fill_cases((randn(3, 1, 5),), route=True) + [
                    Case("like_int64", (randint(0, 5, 2, 9), -3)),
                    Case("like_bool", (randint(0, 2, 3, 7, dtype="bool"), 1)),
                    Case("like_float16", (randn(3, 7, dtype="float16"), -INF)),
                    Case("odd_length", (randn(4099), -INF)),
                    Case("resize", (randn(4, 9), -INF), resize={"self": (3, 5)}),
                    Case("channels_last", (randn(1, 3, 2, 2), 0.0),
                         kwargs={"memory_format": torch_constant("channels_last")},
                         raises="memory_format is not supported (got channels_last, expected None "
                                "or contiguous_format or preserve_format)"),
                ], start="fill_value", guards=value_guards("fill_value")),
    creation_op("scalar_tensor", "aten.scalar_tensor.default",
                [Scalar("s"), *creation_args(False)], "ones(0)", "static", [
                    Case("float", (2.5,), route="fill_range"),
                    Case("minus_inf", (-INF,)),
                    Case("nan", (NAN,)),
                    Case("negative_zero", (-0.0,)),
                    Case("int_value", (3,)),
                    Case("int64_dtype", (-4,), kwargs={"dtype": torch_dtype("int64")}),
                    Case("bool_dtype", (2.0,), kwargs={"dtype": torch_dtype("bool")}),
                    Case("overflows_float32", (-1e39,),
                         raises="s overflows float32 (got -1e+39, expected a value within "
                                "+-3.4028234663852886e+38, inf or nan)"),
                    Case("float16_dtype", (-0.1,), kwargs={"dtype": torch_dtype("float16")}),
                    Case("overflows_float16", (1e5,), kwargs={"dtype": torch_dtype("float16")},
                         raises="s overflows float16 (got 100000.0, expected a value within "
                                "+-65504, inf or nan)"),
                    Case("overflows_int32", (3e9,), kwargs={"dtype": torch_dtype("int32")},
                         raises="s does not fit int32 (int64 tensors are int32 on the GPU) (got "
                                "3000000000"),
                ], start="s", guards=value_guards("s")),
    creation_op("arange", "aten.arange.start_step",
                [Scalar("start"), Scalar("end"), Scalar("step", default=1),
                 *creation_args(False)],
                "[length]", "static", [
                    Case("position_ids", (0, 12, 1), route="fill_range"),  # int64
                    Case("float_positions", (0.0, 12.0, 1.0), exact=True),
                    Case("fractional_float_step", (-1.5, 3.7, 0.3), atol=1e-6, rtol=1e-6),
                    Case("negative_step", (10, -3, -3)),
                    Case("float_negative_step", (2.0, -2.0, -0.5), exact=True),
                    Case("int32_dtype", (-5, 9, 2), kwargs={"dtype": torch_dtype("int32")}),
                    Case("float32_dtype", (3, 17, 1), kwargs={"dtype": torch_dtype("float32")}),
                    # float16: each value computed in float32, rounded once (as torch)
                    Case("float16_dtype", (-1.5, 29.0, 0.5),
                         kwargs={"dtype": torch_dtype("float16")}, exact=True),
                    Case("empty", (5, 5, 1)),
                    Case("default_step", (2, 9)),
                    Case("prime_length", (0, 4099, 1)),
                    Case("zero_step", (0, 5, 0), raises="step is zero (got 0.0, expected a non-zero "
                                                        "step)"),
                    Case("wrong_direction", (0, 5, -1),
                         raises="end cannot be reached from start with this step (got 5.0, "
                                "expected end >= 0.0 for a positive step, end <= 0.0 for a "
                                "negative one)"),
                    Case("infinite_end", (0, INF, 1),
                         raises="end is not finite (got inf, expected a finite number)"),
                    Case("nan_start", (NAN, 3, 1),
                         raises="start is not finite (got nan, expected a finite number)"),
                    Case("fractional_start", (0.5, 3.0, 1), kwargs={"dtype": torch_dtype("int64")},
                         raises="start is not integral for an integer output (got 0.5, expected "
                                "an integer)"),
                    Case("fractional_end", (0, 3.5, 1), kwargs={"dtype": torch_dtype("int32")},
                         raises="end is not integral for an integer output (got 3.5, expected "
                                "an integer)"),
                    Case("fractional_step", (0, 3, 1.5), kwargs={"dtype": torch_dtype("int64")},
                         raises="step is not integral for an integer output (got 1.5, expected "
                                "an integer)"),
                    Case("beyond_int32", (0, 2**33, 2**30),
                         raises="end gives values beyond int32 (int64 tensors are int32 on the "
                                "GPU) (got 8589934592"),
                    Case("rejects_bool_dtype", (0, 3, 1), kwargs={"dtype": torch_dtype("bool")},
                         raises="dtype is not supported (got bool, expected None or float16 or "
                                "float32 or int32)"),
                ], start="start", step="step", fill=False, let=ARANGE_LETS,
                guards=ARANGE_GUARDS, out_dtypes=(F32, F16, I32), exact=False),
    size_op("zeros", "0.0", fixed_value_cases(([3, 5],))),
    size_op("ones", "1.0", fixed_value_cases(([4099],))),
    like_op("zeros_like", "0.0", fixed_value_cases((randn(2, 7),), resize={"self": (2, 3)})),
    like_op("ones_like", "1.0", fixed_value_cases((randint(0, 2, 5, 3, dtype="bool"),),
                                                 resize={"self": (4, 3)})),
]
