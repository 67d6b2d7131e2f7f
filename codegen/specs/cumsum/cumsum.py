"""cumsum over any dim, float32, int32 (int64) or bool input, with the `dtype` argument.

The input is viewed as [outer, N, inner] around `dim`. Over the last dim (inner == 1)
one workgroup scans a row, a chunk of 4 x 128 elements at a time (each invocation adds
up 4 neighbours, the workgroup scans those totals, and a running carry joins the
chunks); over a strided dim one invocation adds up a line in order, neighbouring
invocations on neighbouring elements. Each element is converted to the output dtype
first, as torch does with `dtype` (float -> int truncates toward zero; a bool counts as 0
or 1, read from its byte: torch's default output for it is int64). Integer outputs are
int32 on the GPU (an int64 output included): sums past int32 wrap.
"""

from codegen.language import (BOOL, F32, I32, Bind, Case, Dispatch, Elementwise, Int, Kernel, Op,
                              Output, Override, Route, Rows, ScalarType, Tensor, u32)
from codegen.graph.inputs import rand, randint, randn, tensor, torch_dtype
from codegen.specs.common._lines import DIM_GUARD, LINE_LETS

TYPES = {"IN_FLOAT": Override("bool", True), "IN_BOOL": Override("bool", False),
         "OUT_FLOAT": Override("bool", True)}
LAST_DIM = Kernel("cumsum_last_dim", workgroup=(128, 1, 1), helpers=("../common/each_row.wgsl",),
                  overrides=TYPES)
STRIDED = Kernel("cumsum_strided", workgroup=(64, 1, 1), helpers=("../common/each_line.wgsl",),
                 overrides=TYPES)
TYPE_OVERRIDES = {"IN_FLOAT": "self.dtype == 'float32'", "IN_BOOL": "self.dtype == 'bool'",
                  "OUT_FLOAT": "out.dtype == 'float32'"}
NAN, INF = float("nan"), float("inf")
# integral values: every order of adding them up gives torch's result bit for bit
IEEE = [[1.0, NAN, 2.0, 3.0], [INF, 1.0, -INF, 2.0], [-INF, 1.0, 2.0, -3.0],
        [0.5, -0.5, 4.0, -2.0]]

OPS = [Op(
    name="cumsum",
    targets=["aten.cumsum.default"],
    args=[Tensor("self", dtypes=(F32, I32, BOOL), rank=(1, 8)), Int("dim"), ScalarType("dtype"),
          Output("out", dtypes=(F32, I32))],
    let=LINE_LETS,
    guards=[DIM_GUARD],
    shapes={"out": "self.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"N": u32("N"), "inner": u32("inner"), "num_rows": u32("lines")},
        bindings=[Bind("input", "self", elem="u32"), Bind("output", "out", write=True, elem="u32")],
        routes=[Route(LAST_DIM, Rows("lines"), when="inner == 1", overrides=TYPE_OVERRIDES),
                Route(STRIDED, Elementwise("lines"), overrides=TYPE_OVERRIDES)],
        helpers=["cumsum_common.wgsl"],
    )],
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
        Case("bool_rows", (randint(0, 2, 3, 37, dtype="bool"), -1), route="cumsum_last_dim",
             exact=True),
        # 1031 bytes a row: the chunks' words straddle rows
        Case("bool_long_rows", (randint(0, 2, 2, 1031, dtype="bool"), 1), exact=True),
        Case("bool_strided", (randint(0, 2, 5, 7, 3, dtype="bool"), 1), route="cumsum_strided",
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
        Case("rejects_float16_dtype", (randn(2, 3), 1), kwargs={"dtype": torch_dtype("float16")},
             raises="dtype is not supported (got float16, expected None or float32 or int32)"),
        Case("rejects_bool_output", (randn(2, 3), 1), kwargs={"dtype": torch_dtype("bool")},
             raises="dtype is not supported (got bool, expected None or float32 or int32)"),
    ],
)]
