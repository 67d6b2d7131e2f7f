"""cumsum over any dim, float32, float16, int32 (int64) or bool input, with the `dtype`
argument.

The input is viewed as [outer, N, inner] around `dim`. Over the last dim (inner == 1)
one workgroup scans a row, a chunk of 4 x 128 elements at a time (each invocation adds
up 4 neighbours, the workgroup scans those totals, and a running carry joins the
chunks); over a strided dim one invocation adds up a line in order, neighbouring
invocations on neighbouring elements. Each element is converted to the output dtype
first, as torch does with `dtype` (float -> int truncates toward zero; a bool counts as 0
or 1, read from its byte: torch's default output for it is int64). Integer outputs are
int32 on the GPU (an int64 output included): sums past int32 wrap.

A float output is written through a view of the output (one body): float32, or float16
on the kernels' float16 twins (shader-f16, or halves packed in words), whose sums stay
float32 and are rounded to half once per stored element, as torch's float16 cumsum
accumulates in float; an integer output has a variant of its own that stores the bits.
A float16 input is read two halves a word, on every device; into a float16 output
each element is rounded to half first (`dtype=torch.float16` converts the input).
"""

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Dispatch, Elementwise, Int,
                              Kernel, Op, Output, Override, Params, Route, Rows, ScalarType,
                              Tensor, half_routes, u32)
from codegen.graph.inputs import rand, randint, randn, tensor, torch_dtype
from codegen.specs.common._lines import DIM_GUARD, LINE_LETS

TYPES = {"IN_FLOAT": Override("bool", True), "IN_HALF": Override("bool", False),
         "IN_BOOL": Override("bool", False), "OUT_FLOAT": Override("bool", True),
         "OUT_HALF": Override("bool", False)}
# float outputs through the output's view; the integer variants store the bits
LAST_DIM = Kernel("cumsum_last_dim", workgroup=(128, 1, 1), overrides=TYPES,
                  helpers=("../common/each_row.wgsl", "cumsum_store_half.wgsl"))
STRIDED = Kernel("cumsum_strided", workgroup=(64, 1, 1), overrides=TYPES,
                 helpers=("../common/each_line.wgsl", "cumsum_store_half.wgsl"))
LAST_DIM_I32 = LAST_DIM.variant("cumsum_last_dim_i32",
                                helpers=("../common/each_row.wgsl", "cumsum_store_bits.wgsl"))
STRIDED_I32 = STRIDED.variant("cumsum_strided_i32",
                              helpers=("../common/each_line.wgsl", "cumsum_store_bits.wgsl"))
FLOAT_IN = f"(self.dtype == '{F32}' or self.dtype == '{F16}')"
FLOAT_OUT = f"(out.dtype == '{F32}' or out.dtype == '{F16}')"
TYPE_OVERRIDES = {"IN_FLOAT": FLOAT_IN, "IN_HALF": f"self.dtype == '{F16}'",
                  "IN_BOOL": "self.dtype == 'bool'", "OUT_FLOAT": FLOAT_OUT,
                  "OUT_HALF": f"out.dtype == '{F16}'"}
PARAMS = Params({"N": u32("N"), "inner": u32("inner"), "num_rows": u32("lines")})


def routes(last_dim: Kernel, strided: Kernel) -> list[Route]:
    return [Route(last_dim, Rows("lines"), when="inner == 1", overrides=TYPE_OVERRIDES),
            Route(strided, Elementwise("lines"), overrides=TYPE_OVERRIDES)]


NAN, INF = float("nan"), float("inf")
# integral values: every order of adding them up gives torch's result bit for bit
IEEE = [[1.0, NAN, 2.0, 3.0], [INF, 1.0, -INF, 2.0], [-INF, 1.0, 2.0, -3.0],
        [0.5, -0.5, 4.0, -2.0]]
# float16: 60000 + 10000 overflows half (the float32 sum does not, and comes back: 50000
# rounds to 49984, ties to even); subnormal halves add up exactly
HALF_SPECIALS = [[60000.0, 10000.0, -20000.0, 1.0], [2.0 ** -24, 2.0 ** -24, 2.0 ** -24, -2.0 ** -24],
                 [65504.0, 16.0, -16.0, -65504.0], [NAN, 1.0, INF, -1.0]]

OPS = [Op(
    name="cumsum",
    targets=["aten.cumsum.default"],
    args=[Tensor("self", dtypes=(F32, F16, I32, BOOL), rank=(1, 8)), Int("dim"),
          ScalarType("dtype"), Output("out", dtypes=(F32, F16, I32))],
    let=LINE_LETS,
    guards=[DIM_GUARD],
    shapes={"out": "self.dims"},
    resize="dynamic",
    dispatches=[
        Dispatch(params=PARAMS, when=FLOAT_OUT, name="cumsum_float",
                 bindings=[Bind("input", "self", elem="u32"),
                           Bind("output", "out", write=True, view="scalar")],
                 routes=[*half_routes(routes(LAST_DIM, STRIDED), "out"),
                         *routes(LAST_DIM, STRIDED)],
                 helpers=["../common/half_bits.wgsl", "cumsum_common.wgsl"]),
        Dispatch(params=PARAMS, when=f"not {FLOAT_OUT}", name="cumsum_int",
                 bindings=[Bind("input", "self", elem="u32"),
                           Bind("output", "out", write=True, elem="u32")],
                 routes=routes(LAST_DIM_I32, STRIDED_I32),
                 helpers=["../common/half_bits.wgsl", "cumsum_common.wgsl"]),
    ],
    cases=[
        Case("last_dim", (randn(4, 10), -1), route="cumsum_last_dim", atol=1e-5),
        Case("row_of_one", (randn(6, 1), 1), atol=1e-5),
        Case("prime_rows", (randn(3, 257), 1), rtol=1e-4, atol=1e-4),
        # 1031 = 2 whole chunks of 512 and 7 more
        Case("long_rows", (randn(2, 1031), -1), rtol=1e-4, atol=1e-4),
        Case("int32_rows", (randint(-1000, 1000, 3, 700, dtype="int32"), 1)),
        Case("int64_rows", (randint(-1000, 1000, 2, 9), -1)),
        Case("channels", (randn(2, 5, 3, 7), 1), route="cumsum_strided", atol=1e-5),
        Case("first_dim", (randn(7, 3, 4), 0), atol=1e-5),
        Case("long_strided_line", (randn(1031, 3), 0), rtol=1e-4, atol=1e-4),
        # 2 x 300 lines: several workgroups of the 64-wide strided kernel
        Case("many_lines", (randn(2, 9, 300), 1), atol=1e-5),
        Case("int32_strided", (randint(-1000, 1000, 4, 5, 6, dtype="int32"), 1)),
        Case("rank1", (randn(11), 0), atol=1e-5),
        # bool counts as 0/1 (torch's output: int64); Hugging Face's position ids from a mask
        Case("bool_rows", (randint(0, 2, 3, 37, dtype="bool"), -1), route="cumsum_last_dim_i32",
             exact=True),
        # 1031 bytes a row: the chunks' words straddle rows
        Case("bool_long_rows", (randint(0, 2, 2, 1031, dtype="bool"), 1), exact=True),
        Case("bool_strided", (randint(0, 2, 5, 7, 3, dtype="bool"), 1), route="cumsum_strided_i32",
             exact=True),
        Case("bool_to_int32", (randint(0, 2, 4, 9, dtype="bool"), 0),
             kwargs={"dtype": torch_dtype("int32")}, exact=True),
        Case("bool_to_float", (randint(0, 2, 3, 10, dtype="bool"), 1),
             kwargs={"dtype": torch_dtype("float32")}, exact=True),
        Case("bool_resize", (randint(0, 2, 4, 6, 9, dtype="bool"), -1),
             resize={"self": (2, 3, 9)}, exact=True),
        Case("int_to_float", (randint(-50, 50, 3, 40, dtype="int32"), 1),
             kwargs={"dtype": torch_dtype("float32")}, exact=True),
        Case("float_to_int", (rand(3, 40, low=-10.0, high=10.0), 1),
             kwargs={"dtype": torch_dtype("int32")}),
        Case("float_to_int_strided", (rand(5, 6, low=-10.0, high=10.0), 0),
             kwargs={"dtype": torch_dtype("int64")}),
        Case("float32_dtype", (randn(3, 8), 1), kwargs={"dtype": torch_dtype("float32")},
             atol=1e-5),
        Case("ieee_last_dim", (tensor(IEEE), 1), route="cumsum_last_dim", exact=True),
        Case("ieee_strided", (tensor([list(c) for c in zip(*IEEE)]), 0),
             route="cumsum_strided", exact=True),
        Case("resize_last_dim", (randn(4, 6, 20), -1), resize={"self": (2, 3, 20)}, atol=1e-5),
        Case("resize_strided", (randn(3, 8, 5), 1), resize={"self": (2, 6, 4)}, atol=1e-5),
        Case("dim_out_of_range", (randn(2, 3), -3),
             raises="dim names a dim the input does not have (got -3, expected a dim in "
                    "-2..1)"),
        # float16: float32 sums, each output rounded once (torch's float16 cumsum)
        Case("f16_last_dim", (randn(4, 10, dtype="float16"), -1), route="cumsum_last_dim_f16"),
        Case("f16_strided", (randn(2, 5, 3, 7, dtype="float16"), 1),
             route="cumsum_strided_f16"),
        Case("f16_long_rows", (randn(2, 1031, dtype="float16"), -1)),
        # odd rows: neighbouring rows share words (the packed store is atomic)
        Case("f16_odd_rows", (randn(5, 7, dtype="float16"), 1), resize={"self": (3, 5)},
             route="cumsum_last_dim_f16"),
        Case("f16_specials", (tensor(HALF_SPECIALS, dtype="float16"), 1),
             route="cumsum_last_dim_f16", exact=True),
        Case("f16_specials_strided", (tensor([list(c) for c in zip(*HALF_SPECIALS)],
                                             dtype="float16"), 0),
             route="cumsum_strided_f16", exact=True),
        Case("bool_to_f16", (randint(0, 2, 3, 37, dtype="bool"), 1),
             kwargs={"dtype": torch_dtype("float16")}, route="cumsum_last_dim_f16", exact=True),
        Case("int_to_f16", (randint(-3000, 3000, 3, 40, dtype="int32"), 1),
             kwargs={"dtype": torch_dtype("float16")}, route="cumsum_last_dim_f16", exact=True),
        Case("f32_to_f16", (randn(3, 40), 1), kwargs={"dtype": torch_dtype("float16")}),
        Case("f16_to_f32", (randn(3, 40, dtype="float16"), 1),
             kwargs={"dtype": torch_dtype("float32")}, route="cumsum_last_dim", atol=1e-5),
        Case("f16_to_int", (rand(5, 6, low=-10.0, high=10.0, dtype="float16"), 0),
             kwargs={"dtype": torch_dtype("int32")}, route="cumsum_strided_i32"),
        Case("rejects_bool_output", (randn(2, 3), 1), kwargs={"dtype": torch_dtype("bool")},
             raises="dtype is not supported (got bool, expected None or float16 or float32 or "
                    "int32)"),
    ],
)]
