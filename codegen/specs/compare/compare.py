"""Broadcasting elementwise ops with bool results or bool conditions: the comparisons
(eq/ne/lt/le/gt/ge, Tensor and Scalar overloads), logical_not/and/or, bitwise_and/or
on bool tensors and where.self.

One operand model serves them all: up to three operands a, b, c (each float32, float16,
int32 or bool, read from u32 words by its dtype's KIND override), right-aligned into eight
dim slots with stride 0 on broadcast dims. A bool output (predicate_broadcast) is written
a word (4 elements) at a time, so each invocation owns whole words; where into float32 or
int32 (select_broadcast) writes vec4s, into float16 two words of halves. An op with fewer
operands binds its first tensor again for the missing ones (KIND_NONE: never read); the
Scalar overloads read the scalar from Params (KIND_SCALAR).
"""

from dataclasses import replace

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard,
                              Kernel, Op, Output, Override, Param, Route, Scalar, Tensor, f32, i32,
                              u32)
from codegen.graph.inputs import randint, randn, tensor

SLOTS = 8
KINDS = {F32: 0, I32: 1, BOOL: 2, F16: 5}
KIND_SCALAR, KIND_NONE = 3, 4
OP_CODES = {"eq": 0, "ne": 1, "lt": 2, "le": 3, "gt": 4, "ge": 5, "not": 6, "and": 7, "or": 8,
            "where": 9}

_KIND_OVERRIDES = {k: Override("u32", 0) for k in ("A_KIND", "B_KIND", "C_KIND")}
PREDICATE = Kernel("predicate_broadcast", workgroup=(128, 1, 1),
                   overrides={"OP": Override("u32", 0), **_KIND_OVERRIDES})
SELECT = Kernel("select_broadcast", workgroup=(128, 1, 1),
                overrides={**_KIND_OVERRIDES, "OUT_FLOAT": Override("bool", True),
                           "OUT_HALF": Override("bool", False)},
                helpers=("../common/half_bits.wgsl",))

OUT_DIMS = f"right_align(out.dims, {SLOTS}, 1)"
VEC_SLOTS = f"array<vec4<u32>, {SLOTS // 4}>"
# an integral scalar that fits int32: compared with an integer tensor as an integer
INT_SCALAR = "abs(other) <= 2147483647.0 and floor(other) == other"


def kind(t: str) -> str:
    """The KIND override of tensor argument `t`, from its dtype."""
    return (f"0 if {t}.dtype == 'float32' else (1 if {t}.dtype == 'int32' else "
            f"(5 if {t}.dtype == 'float16' else 2))")


def elementwise_op(name: str, target: str, operands: list[Tensor], cases: list[Case],
                   code: str, scalar: bool = False, guards=(), out_dtypes=(BOOL,)) -> Op:
    """out = f(operands...) broadcast; `operands` are the op's tensors in schema order
    (a, b, c), `scalar` adds the Scalar `other` of the Scalar overloads as operand b.
    Every case compares bit for bit with torch run at the inputs' own dtypes (a float64
    reference would compare float32 x with the scalar 0.1 unrounded)."""
    cases = [replace(c, exact=True) for c in cases]
    names = [t.name for t in operands]
    shape = f"{names[0]}.dims"
    for n in names[1:]:
        shape = f"broadcast_shape({shape}, {n}.dims)"
    # the operand each binding reads (a dummy where the op has fewer) and its kind
    bound = names + [names[0]] * (3 - len(names))
    kinds = [kind(n) for n in names] + ([str(KIND_SCALAR)] if scalar else [])
    kinds += [str(KIND_NONE)] * (3 - len(kinds))
    overrides = {"A_KIND": kinds[0], "B_KIND": kinds[1], "C_KIND": kinds[2]}
    grid = Elementwise("ceil_div(out.numel, 4)", per_invocation=4)
    routes = [Route(PREDICATE, grid, overrides={"OP": str(OP_CODES[code]), **overrides})]
    if code == "where":
        routes = [Route(PREDICATE, grid, when="out.dtype == 'bool'",
                        overrides={"OP": str(OP_CODES[code]), **overrides}),
                  Route(SELECT, grid, overrides={**overrides,
                                                 "OUT_FLOAT": "out.dtype == 'float32'",
                                                 "OUT_HALF": "out.dtype == 'float16'"})]
    return Op(
        name=name,
        targets=[target],
        args=[*operands, *([Scalar("other")] if scalar else []),
              Output("out", out_dtypes, rank=(0, SLOTS))],
        let={"int_scalar": INT_SCALAR} if scalar else {},
        guards=list(guards),
        shapes={"out": shape},
        resize="dynamic",
        dispatches=[Dispatch(
            params={
                "out_dims": Param(VEC_SLOTS, OUT_DIMS),
                **{f"{x}_strides": Param(VEC_SLOTS, f"broadcast_strides({n}.dims, {OUT_DIMS})")
                   for x, n in zip("abc", bound)},
                "num_elements": u32("out.numel"),
                "num_quads": u32("ceil_div(out.numel, 4)"),
                "rank": u32("out.rank"),
                "same_shape": u32(" and ".join(f"{n}.dims == out.dims" for n in names)),
                "scalar": f32("other" if scalar else "0.0"),
                "scalar_int": i32("floor(other) if int_scalar else 0" if scalar else "0"),
                "scalar_is_int": u32(f"int_scalar and {names[0]}.dtype != 'float32' and "
                                     f"{names[0]}.dtype != 'float16'" if scalar else "False"),
            },
            helpers=["elements.wgsl", "operands.wgsl"],
            bindings=[Bind(x, n, elem="u32") for x, n in zip("abc", bound)]
                     + [Bind("output", "out", write=True, elem="u32")],
            routes=routes,
        )],
        cases=cases,
    )


VALUE_DTYPES = (F32, F16, I32, BOOL)


def broadcast_guard(a: str, b: str) -> Guard:
    return Guard(f"broadcasts({a}.dims, {b}.dims)", b, f"does not broadcast with {a}",
                 got=f"{b}.dims", expected=f"dims equal to or 1 where {{{a}.dims}} differs")


def binary_op(name: str, code: str, cases: list[Case], dtypes=VALUE_DTYPES,
              overload: str = "Tensor") -> Op:
    return elementwise_op(
        name, f"aten.{name.removesuffix('_tensor')}.{overload}",
        [Tensor("self", dtypes, rank=(0, SLOTS)), Tensor("other", dtypes, rank=(0, SLOTS))],
        cases, code, guards=[broadcast_guard("self", "other")])


def scalar_op(name: str, code: str, cases: list[Case]) -> Op:
    return elementwise_op(name, f"aten.{name.removesuffix('_scalar')}.Scalar",
                          [Tensor("self", VALUE_DTYPES, rank=(0, SLOTS))], cases, code,
                          scalar=True)


NAN, INF = float("nan"), float("inf")
# float16 specials: NaN, the infinities, both zeros, the largest halves, a subnormal one
HALF_SPECIALS = (NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 65504.0, -65504.0, 2.0 ** -24)
# every pair of IEEE specials and ordinary values, both ways round: NaN against
# everything (itself included), -0.0 against 0.0, infinities against the largest floats
SPECIAL = (NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 3.4e38, -3.4e38, 1e-45)
PAIRS_LHS = tensor([[x] * len(SPECIAL) for x in SPECIAL])
PAIRS_RHS = tensor([list(SPECIAL)])


def compare_tensor_cases() -> list[Case]:
    return [
        Case("ieee_specials", (PAIRS_LHS, PAIRS_RHS), route="predicate_broadcast"),
        Case("same_shape", (randint(-3, 3, 2, 3, 5, dtype="float32"),
                            randint(-3, 3, 2, 3, 5, dtype="float32"))),
        Case("int32", (randint(-4, 4, 7, 9, dtype="int32"), randint(-4, 4, 7, 9, dtype="int32"))),
        Case("int64_broadcast", (randint(-4, 4, 3, 1, 5), randint(-4, 4, 4, 1))),
        Case("int_float_mixed", (randint(-3, 3, 5, 6, dtype="int32"),
                                 tensor([-2.5, -1.0, 0.0, 0.5, 1.0, 2.0]))),
        Case("bool_operands", (randint(0, 2, 3, 5, dtype="bool"), randint(0, 2, 5, dtype="bool"))),
        Case("both_broadcast", (randint(-2, 2, 4, 1, 6, dtype="float32"),
                                randint(-2, 2, 3, 1, dtype="float32"))),
        Case("scalar_operand", (randn(2, 7), randn())),
        # 2 workgroups of quads, the last quad partial; rows of 1009 cross quads
        Case("prime_rows", (randint(-2, 2, 5, 1009, dtype="float32"),
                            randint(-2, 2, 5, 1, dtype="float32"))),
        Case("rank8", (randn(2, 1, 2, 3, 1, 2, 3, 2), randn(3, 4, 1, 3, 1))),
        Case("resize", (randint(-2, 2, 2, 6, 4, dtype="float32"),
                        randint(-2, 2, 6, 1, dtype="float32")), resize={"self": (1, 6, 3)}),
        Case("no_broadcast", (randn(2, 3), randn(4)),
             raises="other does not broadcast with self (got [4], expected dims equal to or 1 "
                    "where [2, 3] differs)"),
        # float16: every pair of specials, and beside float32 (torch promotes to float32)
        Case("f16_specials", (tensor([[x] * len(HALF_SPECIALS) for x in HALF_SPECIALS],
                                     dtype="float16"), tensor([list(HALF_SPECIALS)],
                                                              dtype="float16"))),
        Case("f16_float32_mixed", (randn(3, 5, dtype="float16"), randn(5))),
        Case("rejects_uint8", (randint(0, 9, 3, dtype="uint8"), randn(3)),
             raises="self has an unsupported dtype (got uint8, expected float32 or float16 or "
                    "int32 or bool)"),
    ]


COLUMN = tensor([[NAN], [INF], [-INF], [-0.0], [0.0], [1.0], [-1.0], [3.4e38], [2.5]])


def compare_scalar_cases() -> list[Case]:
    return [
        Case("ieee_specials_zero", (COLUMN, 0.0), route="predicate_broadcast"),
        Case("ieee_specials_negative_zero", (COLUMN, -0.0)),
        Case("nan_scalar", (COLUMN, NAN)),
        Case("inf_scalar", (COLUMN, INF)),
        Case("minus_inf_scalar", (COLUMN, -INF)),
        Case("int_scalar", (COLUMN, 1)),
        Case("float32_rounding", (tensor([0.1, 0.2, 0.30000001192092896]), 0.1)),
        Case("int32_tensor", (randint(-5, 5, 3, 7, dtype="int32"), 2)),
        Case("int64_tensor_fraction", (randint(-5, 5, 3, 7), 1.5)),
        Case("int32_tensor_inf", (randint(-5, 5, 11, dtype="int32"), -INF)),
        Case("int32_tensor_nan", (randint(-5, 5, 11, dtype="int32"), NAN)),
        Case("bool_tensor", (randint(0, 2, 13, dtype="bool"), 1)),
        Case("zero_dim", (tensor(3.0), 3)),
        Case("odd_length", (randint(-3, 3, 4099, dtype="float32"), 0)),
        Case("resize", (randint(-3, 3, 4, 64, dtype="float32"), 1.0), resize={"self": (3, 50)}),
        # a float16 tensor against a scalar of float32 precision: torch compares in float16
        # precision only where the scalar is exactly a half, as the float32 compare does
        Case("f16_tensor", (tensor([[x] for x in HALF_SPECIALS], dtype="float16"), 0.0)),
        Case("f16_int_scalar", (randint(-3, 3, 4, 5, dtype="float16"), 1)),
        Case("rejects_uint8", (randint(0, 9, 3, dtype="uint8"), 0.0),
             raises="self has an unsupported dtype (got uint8, expected float32 or float16 or "
                    "int32 or bool)"),
    ]


def logical_cases(bool_only: bool) -> list[Case]:
    cases = [
        Case("bool", (randint(0, 2, 6, 7, dtype="bool"), randint(0, 2, 6, 7, dtype="bool")),
             route="predicate_broadcast"),
        Case("broadcast", (randint(0, 2, 3, 1, 5, dtype="bool"), randint(0, 2, 4, 1, dtype="bool"))),
        Case("odd_length", (randint(0, 2, 4099, dtype="bool"), randint(0, 2, 1, dtype="bool"))),
        Case("resize", (randint(0, 2, 4, 9, dtype="bool"), randint(0, 2, 9, dtype="bool")),
             resize={"self": (2, 9)}),
        Case("no_broadcast", (randint(0, 2, 2, 3, dtype="bool"), randint(0, 2, 4, dtype="bool")),
             raises="other does not broadcast with self (got [4], expected dims equal to or 1 "
                    "where [2, 3] differs)"),
    ]
    if bool_only:
        return cases + [Case("rejects_int32", (randint(0, 2, 3, dtype="int32"),
                                               randint(0, 2, 3, dtype="bool")),
                             raises="self has an unsupported dtype (got int32, expected bool)")]
    return cases + [
        Case("float_specials", (tensor([NAN, INF, -0.0, 0.0, 1e-45, -2.0]),
                                tensor([1.0, 1.0, 1.0, 1.0, 1.0, NAN]))),
        Case("int_float", (randint(-2, 2, 3, 4, dtype="int32"), randn(4))),
    ]


COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
CONDITION = randint(0, 2, 4, 1, 6, dtype="bool")

OPS = [
    *(binary_op(f"{c}_tensor", c, compare_tensor_cases()) for c in COMPARISONS),
    *(scalar_op(f"{c}_scalar", c, compare_scalar_cases()) for c in COMPARISONS),
    elementwise_op("logical_not", "aten.logical_not.default",
                   [Tensor("self", VALUE_DTYPES, rank=(0, SLOTS))], [
        Case("bool", (randint(0, 2, 5, 7, dtype="bool"),), route="predicate_broadcast"),
        Case("float_specials", (tensor([NAN, INF, -INF, -0.0, 0.0, 1e-45, -2.0]),)),
        Case("int32", (randint(-2, 2, 3, 5, dtype="int32"),)),
        Case("odd_length", (randint(0, 2, 4099, dtype="bool"),)),
        Case("resize", (randint(0, 2, 4, 9, dtype="bool"),), resize={"self": (3, 5)}),
        Case("f16_specials", (tensor(list(HALF_SPECIALS), dtype="float16"),)),
        Case("rejects_uint8", (randint(0, 9, 3, dtype="uint8"),),
             raises="self has an unsupported dtype (got uint8, expected float32 or float16 or "
                    "int32 or bool)"),
    ], "not"),
    binary_op("logical_and", "and", logical_cases(bool_only=False), overload="default"),
    binary_op("logical_or", "or", logical_cases(bool_only=False), overload="default"),
    binary_op("bitwise_and", "and", logical_cases(bool_only=True), dtypes=(BOOL,)),
    binary_op("bitwise_or", "or", logical_cases(bool_only=True), dtypes=(BOOL,)),
    elementwise_op(
        "where", "aten.where.self",
        [Tensor("condition", (BOOL,), rank=(0, SLOTS)),
         Tensor("self", VALUE_DTYPES, rank=(0, SLOTS)),
         Tensor("other", VALUE_DTYPES, rank=(0, SLOTS))], [
            # an attention mask: -inf where masked, x elsewhere (NaN and -0.0 pass as bits)
            Case("ieee_specials", (tensor([True, False, True, False, True, True], dtype="bool"),
                                   tensor([NAN, 1.0, -0.0, 2.0, INF, -INF]),
                                   tensor([-INF, NAN, 0.0, -0.0, 3.0, 4.0])),
                 route="select_broadcast"),
            Case("causal_mask", (randint(0, 2, 1, 1, 7, 7, dtype="bool"), randn(2, 3, 7, 7),
                                 tensor(-INF))),
            Case("three_way_broadcast", (CONDITION, randn(3, 1), randn(5, 1, 1, 1))),
            Case("int32", (randint(0, 2, 5, 6, dtype="bool"), randint(-9, 9, 5, 6, dtype="int32"),
                           randint(-9, 9, 6, dtype="int32"))),
            Case("int64", (randint(0, 2, 3, 4, dtype="bool"), randint(-9, 9, 3, 4),
                           randint(-9, 9, 1))),
            Case("int_float_mixed", (randint(0, 2, 3, 4, dtype="bool"),
                                     randint(-9, 9, 3, 4, dtype="int32"), randn(4))),
            Case("bool_values", (randint(0, 2, 3, 5, dtype="bool"), randint(0, 2, 3, 5, dtype="bool"),
                                 randint(0, 2, 5, dtype="bool")), route="predicate_broadcast"),
            Case("same_shape_odd", (randint(0, 2, 4099, dtype="bool"), randn(4099), randn(4099))),
            # float16: a float16 graph's attention mask (the scalar rounded: -inf), mixed
            # operands promoted and rounded to half, and odd lengths (halves in words)
            Case("f16_causal_mask", (randint(0, 2, 1, 1, 7, 7, dtype="bool"),
                                     randn(2, 3, 7, 7, dtype="float16"),
                                     tensor(-INF, dtype="float16"))),
            Case("f16_same_shape_odd", (randint(0, 2, 4099, dtype="bool"),
                                        randn(4099, dtype="float16"),
                                        randn(4099, dtype="float16"))),
            Case("f16_specials", (tensor([True, False, True, False, True], dtype="bool"),
                                  tensor([NAN, 65504.0, -0.0, 1.0, 2.0 ** -24], dtype="float16"),
                                  tensor([-INF, NAN, 0.0, -0.0, 3.0], dtype="float16"))),
            Case("f16_int_mixed", (randint(0, 2, 3, 4, dtype="bool"),
                                   randint(-9, 9, 3, 4, dtype="int32"), randn(4, dtype="float16"))),
            Case("resize", (randint(0, 2, 4, 9, dtype="bool"), randn(4, 9), randn(9)),
                 resize={"condition": (2, 9), "self": (2, 9)}),
            Case("no_broadcast", (randint(0, 2, 3, dtype="bool"), randn(2, 3), randn(4)),
                 raises="other does not broadcast with self (got [4], expected dims equal to "
                        "or 1 where [2, 3] differs)"),
            Case("condition_no_broadcast", (randint(0, 2, 5, dtype="bool"), randn(2, 3),
                                            randn(3)),
                 raises="condition does not broadcast with self and other (got [5], expected "
                        "dims equal to or 1 where [2, 3] differs)"),
            Case("rejects_float_condition", (randn(3), randn(3), randn(3)),
                 raises="condition has an unsupported dtype (got float32, expected bool)"),
        ], "where",
        guards=[broadcast_guard("self", "other"),
                Guard("broadcasts(condition.dims, broadcast_shape(self.dims, other.dims))",
                      "condition", "does not broadcast with self and other", got="condition.dims",
                      expected="dims equal to or 1 where "
                               "{broadcast_shape(self.dims, other.dims)} differs")],
        out_dtypes=(F32, F16, I32, BOOL)),
]
