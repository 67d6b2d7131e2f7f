"""round and bitwise_not: unary ops on the family's entry point (_family.py).

round: float32 and float16, halves to even (torch.round), on the bits where the result must keep a
sign or a NaN. bitwise_not: int32 (and int64, which the graph holds as int32) flips every
bit; bool (one byte per element) is the logical not, four elements per 32-bit word, so a
vec4 holds 16 of them. One body serves both (the BOOL_BYTES constant)."""

from codegen.language import (BOOL, I32, Bind, Case, Dispatch, Elementwise, Kernel, Op, Output,
                              Route, Tensor, u32)
from codegen.graph.inputs import INT32_MAX, INT32_MIN, randint, tensor
from codegen.specs.unary._family import (WORDS_ENTRY, FLOAT_BITS, INF, NAN, math_op, standard_cases,
                                         unary_kernel)

# ties both ways, the largest non-integers (2^23 - 0.5), the first integers-only range,
# values just below a half, tiny values that round to a signed zero
ROUND_SPECIALS = [NAN, -NAN, INF, -INF, -0.0, 0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997,
                  -0.49999997, 8388607.5, -8388607.5, 4194303.5, 8388609.0, -8388609.0, 3.4e38,
                  -3.4e38, 1e-30, -1e-30, -0.3, 1e-45, -1e-45, 7.5, -1023.5]

ROUND = math_op("round", standard_cases("round", ROUND_SPECIALS, tolerance=(0.0, 0.0),
                                        exact_half=True),
                helpers=FLOAT_BITS)

NOT = unary_kernel("bitwise_not", "vec4<u32>", consts={"BOOL_BYTES": "false"})
NOT_BOOL = NOT.variant("bitwise_not_bool", consts={"BOOL_BYTES": "true"})


def not_dispatch(kernel: Kernel, dtype: str, per_vec4: int) -> Dispatch:
    """The words of `dtype`'s tensors, `per_vec4` elements to a vec4 of them."""
    count = f"ceil_div(out.numel, {per_vec4})"
    return Dispatch(
        params={"num_vec4": u32(count)},
        helpers=WORDS_ENTRY,
        bindings=[Bind("input", "self", elem="vec4<u32>"),
                  Bind("output", "out", write=True, elem="vec4<u32>")],
        routes=[Route(kernel, Elementwise(count, per_invocation=4))],
        when=f"self.dtype == '{dtype}'",
        name=dtype,
    )


BITWISE_NOT = Op(
    name="bitwise_not",
    targets=["aten.bitwise_not.default"],
    args=[Tensor("self", (I32, BOOL)), Output("out", (I32, BOOL))],
    shapes={"out": "self.dims"},
    resize="dynamic",
    dispatches=[not_dispatch(NOT, I32, 4), not_dispatch(NOT_BOOL, BOOL, 16)],
    cases=[
        Case("int32_edges", (tensor([INT32_MIN, INT32_MAX, -1, 0, 1, -7, 7, 12345],
                                    dtype="int32"),), route="bitwise_not", exact=True),
        Case("int32_prime_shape", (randint(-10**6, 10**6, 7, 13, 3, dtype="int32"),),
             exact=True),
        # 773 vec4s, the last one partial: second-workgroup lanes store 3 or 2 vec4s
        Case("int32_partial_invocation", (randint(-99, 99, 773 * 4 - 1, dtype="int32"),),
             exact=True),
        Case("int64_small_values", (randint(-1000, 1000, 5, 9),), exact=True),
        Case("int32_resize", (randint(-50, 50, 6, 9, dtype="int32"),),
             resize={"self": (4, 5)}, exact=True),
        Case("int32_empty", (randint(0, 5, 0, 3, dtype="int32"),), exact=True),
        Case("bool_mask", (randint(0, 2, 2, 1, 12, 12, dtype="bool"),),
             route="bitwise_not_bool", exact=True),
        # 1031 bytes: the last vec4 holds 7 of them
        Case("bool_odd_length", (randint(0, 2, 1031, dtype="bool"),), exact=True),
        # 773 * 16 - 5 bytes over two workgroups
        Case("bool_partial_invocation", (randint(0, 2, 773 * 16 - 5, dtype="bool"),),
             exact=True),
        Case("bool_scalar", (tensor(True, dtype="bool"),), exact=True),
        Case("bool_resize", (randint(0, 2, 7, 11, dtype="bool"),), resize={"self": (3, 5)},
             exact=True),
        Case("rejects_float32", (tensor([1.0, -2.0]),),
             raises="self has an unsupported dtype (got float32, expected int32 or bool)"),
    ],
)

OPS = [ROUND, BITWISE_NOT]
