"""Reductions over a run of adjacent dims: mean.dim, sum.dim_IntList, amax and amin; and
argmax / argmin over one dim (or everything).

The input is viewed as [outer, reduce, inner] around the reduced run (dims lo..hi), so
one kernel serves a global average pool (the last two dims), a mean over tokens (a
middle dim) and a reduction over everything (no dims given). Reductions over dims that
are not adjacent (e.g. [0, 2]) are refused by a guard, so export leaves them on
ExecuTorch's CPU kernels. The kernel's MODE override picks sum, mean or max.

sum.dim_IntList also sums int32 tensors and int64 ones (the graph holds those as int32):
a dispatch per dtype, picked by `self.dtype`, as fmod.Scalar does. torch's sum of an
integer tensor is int64, which is int32 on the GPU too; the integer kernel adds in u32,
so a sum past int32 wraps as int32 arithmetic does (docs/numerics.md). `dtype` may name
self's own dtype (int32 or int64 for an integer tensor) or be None; a conversion (an
integer sum as float32, a float sum as an integer) is refused. BEiT's relative position
index is such a sum (int64 [64, 64, 2] over dim -1). mean.dim (torch has no integer
mean), amax and amin take float32 and float16 (the float kernel's float16 twins, a float32
accumulator and one rounding), as sum does.

argmax / argmin (arg_reduce_rows: one body, the float32 and int32 kernels variants of it)
give the first position of the row's largest / smallest element, NaN above every number,
as torch; the result is int64 in torch and int32 on the GPU. dim=None reduces the
flattened tensor. CLIP's text model pools at the argmax of its int64 token ids.
"""

from codegen.language import (F16, F32, I32, Bind, Bool, Case, Dispatch, Guard, IntList, Kernel,
                              Op, Output, Override, Params, Route, Rows, ScalarType, Tensor,
                              half_routes, u32)
from codegen.graph.inputs import INT32_MAX, INT32_MIN, randint, randn, tensor, torch_dtype

REDUCE = Kernel("reduce_rows", workgroup=(64, 1, 1), helpers=("../common/each_row.wgsl",),
                overrides={"MODE": Override("u32", 0)})
REDUCE_I32 = Kernel("reduce_rows_i32", workgroup=(64, 1, 1),  # integer sums only
                    helpers=("../common/each_row.wgsl",))
MODES = {"sum": 0, "mean": 1, "max": 2, "min": 3}
NAN, INF = float("nan"), float("inf")

# the reduced run of dims: every dim when none are given, as torch reads dim=None / []
LETS = {
    "in_range": "len(dim) == 0 or (min(dim) >= -self.rank and max(dim) < self.rank)",
    "dims": "normalize_dims(dim, self.rank) if len(dim) > 0 and in_range else range(self.rank)",
    "lo": "min(dims)",
    "hi": "max(dims)",
    "outer": "prod(self.dims[:lo])",
    "reduce": "prod(self.dims[lo:hi + 1])",
    "inner": "prod(self.dims[hi + 1:])",
}
GUARDS = [
    Guard("in_range", "dim", "names a dim the input does not have", got="dim",
          expected="dims in -{self.rank}..{self.rank - 1}"),
    Guard("hi - lo + 1 == len(dims)", "dim", "does not name adjacent dims, each once",
          got="dim", expected="a run of adjacent dims such as [-2, -1]"),
]
SHAPE = "self.dims[:lo] + ones(hi - lo + 1) + self.dims[hi + 1:] if keepdim else " \
        "self.dims[:lo] + self.dims[hi + 1:]"
# torch's integer sum is int64 unless `dtype` says otherwise; the graph holds int64 as int32,
# so an integer tensor's sum is int32 on the GPU whenever dtype is None, int32 or int64
SAME_DTYPE = Guard("out.dtype == self.dtype", "dtype",
                   "converts the result to another dtype, which is not implemented",
                   got="out.dtype",
                   expected="None or self's dtype, {self.dtype} (int64 is int32 on the GPU)")
PARAMS = {"num_rows": u32("outer * inner"), "reduce": u32("reduce"), "inner": u32("inner")}


def reduce_op(name: str, target: str, mode: str, args: list, cases: list[Case],
              integers: bool = False) -> Op:
    """`integers`: int32 (and int64) tensors too, on a dispatch of their own (sum only)."""
    route = Route(REDUCE, Rows("outer * inner"), overrides={"MODE": str(MODES[mode])})
    floats = [*half_routes([route], "self"), route]
    views = [Bind("input", "self", view="scalar"),
             Bind("output", "out", write=True, view="scalar")]
    if not integers:
        dtypes = (F32, F16)
        dispatches = [Dispatch(params=PARAMS, routes=floats, bindings=views)]
    else:
        assert mode == "sum", "the integer kernel only sums"
        dtypes = (F32, F16, I32)
        params = Params(PARAMS)  # one block, packed once: the dtype changes only the kernel
        dispatches = [
            Dispatch(params=params, routes=floats, when=f"self.dtype != '{I32}'",
                     bindings=views),
            # two's complement words, added as u32 so a sum past int32 wraps by definition
            Dispatch(params=params, routes=[Route(REDUCE_I32, Rows("outer * inner"))],
                     when=f"self.dtype == '{I32}'",
                     bindings=[Bind("input", "self", elem="u32"),
                               Bind("output", "out", write=True, elem="u32")]),
        ]
    return Op(
        name=name,
        targets=[target],
        args=[Tensor("self", dtypes, rank=(1, 8)), *args, Output("out", dtypes)],
        let=LETS,
        guards=GUARDS + ([SAME_DTYPE] if any(isinstance(a, ScalarType) for a in args) else []),
        shapes={"out": SHAPE},
        resize="dynamic",
        dispatches=dispatches,
        cases=cases,
    )


def dim_cases(integers: bool = False) -> list[Case]:
    """Cases for a (self, dim, keepdim) reduction (`integers`: the op sums int32 too)."""
    return [
        # a global average pool: the last two dims, kept (ResNet, MobileNetV2)
        Case("pool_keepdim", (randn(2, 8, 5, 7), [-1, -2], True), route="reduce_rows"),
        Case("pool", (randn(2, 3, 9, 4), [2, 3], False)),
        Case("tokens", (randn(2, 13, 24), [1], False)),  # a middle dim: inner = 24
        Case("first_dim", (randn(5, 3, 2), [0], True)),
        Case("prime_row", (randn(3, 1009), [-1], False)),  # more than 64 per workgroup
        Case("resize", (randn(4, 6, 10), [-1], False), resize={"self": (3, 5, 10)}),
        Case("not_adjacent", (randn(2, 3, 4), [0, 2], False),
             raises="dim does not name adjacent dims, each once (got [0, 2], expected a run "
                    "of adjacent dims such as [-2, -1])"),
        Case("out_of_range", (randn(2, 3), [2], False),
             raises="dim names a dim the input does not have (got [2], expected dims in "
                    "-2..1)"),
        Case("rejects_bool", (tensor([[True, False]], dtype="bool"), [1], False),
             raises="self has an unsupported dtype (got bool, expected float32 or float16 or "
                    "int32)")
        if integers else
        Case("rejects_int32", (tensor([[1, 2]], dtype="int32"), [1], False),
             raises="self has an unsupported dtype (got int32, expected float32 or float16)"),
        # float16: a float32 accumulator, one rounding (a row of 65504s: the sum overflows
        # half, the mean does not)
        Case("f16_pool_keepdim", (randn(2, 8, 5, 7, dtype="float16"), [-1, -2], True),
             route="reduce_rows_f16"),
        Case("f16_large", (tensor([[65504.0, 65504.0, 2.0 ** -24], [-65504.0, 1.0, 0.5]],
                                  dtype="float16"), [-1], False)),
        Case("f16_long_row", (randn(3, 1009, dtype="float16"), [-1], False)),
    ]


# signed coordinate pairs, as in BEiT's relative position index (int64 [N, N, 2] summed
# over the last dim; BEiT shifts them to non-negative first)
REL_COORDS = [[[i - j, (i + 2 * j) % 15 - 7] for j in range(8)] for i in range(-4, 4)]


def int_sum_cases() -> list[Case]:
    """sum.dim_IntList on int32 and int64 tensors (int64 is int32 on the GPU): every
    result fits int32 except in `wraps`, where dtype=int32 makes torch wrap too."""
    return [
        Case("int64_last_dim", (randint(-1000, 1000, 64, 64, 2), [-1], False),
             route="reduce_rows_i32"),
        Case("int64_signed_coords", (tensor(REL_COORDS, dtype="int64"), [-1], False)),
        Case("int32_middle_dim", (randint(-50000, 50000, 2, 13, 24, dtype="int32"), [1],
                                  False)),
        Case("int32_first_dim_keepdim", (randint(-9, 9, 5, 3, 2, dtype="int32"), [0], True)),
        Case("int64_pool_keepdim", (randint(-100, 100, 2, 8, 5, 7), [-1, -2], True)),
        Case("int64_all_dims", (randint(-100, 100, 3, 4, 5), None, False)),
        Case("int32_all_dims_keepdim", (randint(-100, 100, 3, 4, 5, dtype="int32"), [], True)),
        # 1009 and 4099 per row: each of the 64 invocations adds up many elements first
        Case("int32_prime_row", (randint(-10**6, 10**6, 3, 1009, dtype="int32"), [-1], False)),
        Case("int64_long_row", (randint(-10**5, 10**5, 2, 4099), [1], False)),
        Case("int_negative", (tensor([[-1, -2, -3], [-7, 7, 0], [INT32_MIN + 3, -1, -2],
                                      [INT32_MAX - 3, 1, 2]], dtype="int64"), [-1], False)),
        Case("int_resize", (randint(-50, 50, 4, 6, 10, dtype="int32"), [-1], False),
             resize={"self": (3, 5, 10)}),
        Case("int_empty_reduce", (randint(-5, 5, 3, 0), [-1], False)),
        # past int32: torch adds in int64 and casts back, which wraps alike
        Case("wraps", (tensor([[INT32_MAX, 1], [INT32_MIN, -1], [2**30, 2**30],
                               [INT32_MAX, INT32_MAX]], dtype="int32"), [-1], False),
             kwargs={"dtype": torch_dtype("int32")}),
        Case("int32_dtype_int64", (randint(-100, 100, 4, 9, dtype="int32"), [0], False),
             kwargs={"dtype": torch_dtype("int64")}),
        Case("int64_dtype_int32", (randint(-100, 100, 4, 9), [1], True),
             kwargs={"dtype": torch_dtype("int32")}),
        Case("rejects_int_to_float", (randint(-5, 5, 3, 4), [1], False),
             kwargs={"dtype": torch_dtype("float32")},
             raises="dtype converts the result to another dtype, which is not implemented (got "
                    "float32, expected None or self's dtype, int32 (int64 is int32 on the "
                    "GPU))"),
        Case("rejects_float_to_int", (randn(3, 4), [1], False),
             kwargs={"dtype": torch_dtype("int64")},
             raises="dtype converts the result to another dtype, which is not implemented (got "
                    "int32, expected None or self's dtype, float32 (int64 is int32 on the "
                    "GPU))"),
        Case("rejects_float16_dtype", (randn(4, 5), [0], False),
             kwargs={"dtype": torch_dtype("float16")},
             raises="dtype converts the result to another dtype, which is not implemented (got "
                    "float16, expected None or self's dtype, float32 (int64 is int32 on the "
                    "GPU))"),
    ]


OPS = [
    reduce_op("mean_dim", "aten.mean.dim", "mean",
              [IntList("dim", optional=True), Bool("keepdim", default=False),
               ScalarType("dtype")],
              dim_cases() + [
                  Case("all_dims", (randn(3, 4, 5), None, False)),
                  Case("float32_dtype", (randn(4, 5), [0], False),
                       kwargs={"dtype": torch_dtype("float32")}),
                  Case("rejects_float16_dtype", (randn(4, 5), [0], False),
                       kwargs={"dtype": torch_dtype("float16")},
                       raises="dtype converts the result to another dtype, which is not "
                              "implemented (got float16, expected None or self's dtype, float32 "
                              "(int64 is int32 on the GPU))"),
              ]),
    reduce_op("sum_dim", "aten.sum.dim_IntList", "sum",
              [IntList("dim", optional=True), Bool("keepdim", default=False),
               ScalarType("dtype")],
              dim_cases(integers=True) + [
                  Case("all_dims_keepdim", (randn(3, 4, 5), None, True)),
                  Case("empty_reduce", (randn(3, 0), [-1], False)),
                  Case("float32_dtype", (randn(4, 5), [0], False),
                       kwargs={"dtype": torch_dtype("float32")}),
              ] + int_sum_cases(), integers=True),
    reduce_op("amax", "aten.amax.default", "max",
              [IntList("dim"), Bool("keepdim", default=False)],
              dim_cases() + [
                  Case("all_dims", (randn(6, 7), [], False)),
                  # NaN wins over everything, -inf loses to everything (exactly as torch;
                  # the sign of a max of -0.0 and 0.0 is the adapter's, so not tested)
                  Case("ieee_specials", (tensor([[NAN, 1.0, -INF], [-INF, -INF, -INF],
                                                 [3.0, INF, 2.0], [-2.0, NAN, -1.0]]),
                                         [-1], False), exact=True),
              ]),
    reduce_op("amin", "aten.amin.default", "min",
              [IntList("dim"), Bool("keepdim", default=False)],
              dim_cases() + [
                  Case("all_dims", (randn(6, 7), [], False)),
                  # NaN wins over everything, +inf loses to everything (the sign of a min
                  # of -0.0 and 0.0 is the adapter's, so not tested)
                  Case("ieee_specials", (tensor([[NAN, 1.0, INF], [INF, INF, INF],
                                                 [3.0, -INF, 2.0], [-2.0, NAN, -1.0],
                                                 [-3.4e38, 3.4e38, 1e-45]]),
                                         [-1], False), exact=True),
              ]),
]
