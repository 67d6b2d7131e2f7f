"""_softmax, _log_softmax and _safe_softmax over any dim, numerically stable (the line's
max is subtracted before exp).

The input is viewed as [outer, N, inner] around `dim`: a line is the N elements `inner`
apart. Over the last dim (inner == 1) one workgroup takes a row with workgroup
reductions (as vec4s when N % 4 == 0); over a strided dim one invocation takes a line,
so neighbouring invocations read neighbouring elements. As in torch: a line holding NaN
or +inf gives NaN, an all -inf line gives NaN (-inf - -inf), and a -inf entry of any
other line gives exactly 0 (softmax) or -inf (log_softmax). NaN is carried explicitly,
not left to the adapter's exp and log. The LOG override picks log_softmax; SAFE picks
_safe_softmax, torch's softmax for attention (scaled_dot_product_attention's math path):
an all -inf line (a fully masked query) gives zeros instead of NaN. The exporter keeps
_safe_softmax whole (codegen/et/lowering.py); decomposed, it is a softmax plus five mask
ops (eq, any, logical_not, full_like, where) over the whole score tensor.
"""

from codegen.language import (F16, F32, Bind, Bool, Case, Dispatch, Elementwise, Guard, Int,
                              Kernel, Op, Output, Override, Params, Route, Rows, ScalarType, Tensor,
                              half_routes, u32)
from codegen.graph.inputs import randn, tensor
from codegen.specs.common._lines import DIM_GUARD, LINE_LETS

HELPERS = ["softmax_common.wgsl", "../common/workgroup_reduce.wgsl"]

# LOG: log_softmax; SAFE: _safe_softmax
OVERRIDES = {"LOG": Override("bool", False), "SAFE": Override("bool", False)}
# the last-dim kernels: one workgroup a row
ROW = ("../common/each_row.wgsl",)
LAST_DIM = Kernel("softmax_last_dim", workgroup=(128, 1, 1), helpers=ROW, overrides=OVERRIDES)
LAST_DIM_VEC4 = Kernel("softmax_last_dim_vec4", workgroup=(128, 1, 1), helpers=ROW,
                       overrides=OVERRIDES)
STRIDED = Kernel("softmax_strided", workgroup=(64, 1, 1), helpers=("../common/each_line.wgsl",),
                 overrides=OVERRIDES)
NAN, INF = float("nan"), float("inf")

# rows: NaN, +inf, all -inf (each NaN throughout), -inf entries beside finite ones
IEEE_ROWS = [[1.0, NAN, 2.0, 0.5], [1.0, INF, 2.0, 0.5], [-INF, -INF, -INF, -INF],
             [-INF, 0.0, -INF, -INF], [3.0, -INF, 3.0, -INF]]
IEEE_ROWS_ODD = [r[:3] for r in IEEE_ROWS]  # rows of 3: the scalar last-dim kernel


VEC4 = "inner == 1 and N % 4 == 0"  # rows of whole vec4s
FLOATS = (F32, F16)  # float16: the kernels' float16 twins (float32 max, sum and exp)


def dispatches(log: bool, safe: bool) -> list[Dispatch]:
    params = Params({"N": u32("N"), "inner": u32("inner"), "num_rows": u32("lines")})
    picked = {"LOG": str(log), "SAFE": str(safe)}
    vec4 = [Route(LAST_DIM_VEC4, Rows("lines"), overrides=picked)]
    scalar = [Route(LAST_DIM, Rows("lines"), when="inner == 1", overrides=picked),
              Route(STRIDED, Elementwise("lines"), overrides=picked)]
    return [
        Dispatch(params=params,
                 bindings=[Bind("input", "self", view="vec4"),
                           Bind("output", "out", write=True, view="vec4")],
                 routes=[*half_routes(vec4, "self"), *vec4],
                 when=VEC4, helpers=HELPERS),
        Dispatch(params=params,
                 bindings=[Bind("input", "self", view="scalar"),
                           Bind("output", "out", write=True, view="scalar")],
                 routes=[*half_routes(scalar, "self"), *scalar],
                 when=f"not ({VEC4})", helpers=HELPERS),
    ]


def cases(safe: bool) -> list[Case]:
    t = None if safe else False  # the third argument: dtype, or half_to_float
    shared = [
        Case("last_dim", (randn(4, 10), -1, t), route="softmax_last_dim", atol=1e-5),
        Case("attention", (randn(1, 2, 7, 37), 3, t), atol=1e-5),
        Case("attention_vec4", (randn(1, 2, 7, 64), 3, t), route="softmax_last_dim_vec4",
             atol=1e-5),
        # 257 vec4s: several strides of the vec4 kernel's workgroup
        Case("long_vec4_rows", (randn(2, 1028), 1, t), atol=1e-5),
        Case("row_of_one", (randn(6, 1), 1, t), atol=1e-5),
        # rows of 257 and 1031: several strides of the 128-wide workgroup
        Case("prime_rows", (randn(3, 257), 1, t), atol=1e-5),
        Case("long_rows", (randn(2, 1031), -1, t), atol=1e-5),
        Case("channels", (randn(2, 5, 3, 7), 1, t), route="softmax_strided", atol=1e-5),
        Case("first_dim", (randn(7, 3, 4), 0, t), atol=1e-5),
        Case("long_strided_line", (randn(1031, 3), 0, t), atol=1e-5),
        # 2 x 300 lines: several workgroups of the 64-wide column kernel
        Case("many_lines", (randn(2, 9, 300), 1, t), atol=1e-5),
        Case("rank1", (randn(11), 0, t), atol=1e-5),
        # large logits: exp would overflow without the max subtracted
        Case("large_logits", (tensor([[1000.0, 999.0, 998.0], [-1000.0, -999.0, -998.0]]),
                              1, t), atol=1e-5),
        # zeros must be exact (atol 0); NaN and -inf must sit where torch's do (an all
        # -inf row: NaN, or zeros for _safe_softmax)
        Case("ieee_rows", (tensor(IEEE_ROWS), 1, t), route="softmax_last_dim_vec4",
             atol=0.0, rtol=1e-5),
        Case("ieee_rows_odd", (tensor(IEEE_ROWS_ODD), 1, t), route="softmax_last_dim",
             atol=0.0, rtol=1e-5),
        Case("ieee_strided", (tensor([list(c) for c in zip(*IEEE_ROWS)]), 0, t),
             route="softmax_strided", atol=0.0, rtol=1e-5),
        Case("resize_rows", (randn(4, 6, 20), -1, t), resize={"self": (2, 3, 20)},
             atol=1e-5),
        Case("resize_strided", (randn(3, 8, 5), 1, t), resize={"self": (2, 6, 4)},
             atol=1e-5),
        Case("dim_out_of_range", (randn(2, 3), 2, t),
             raises="dim names a dim the input does not have (got 2, expected a dim in "
                    "-2..1)"),
        Case("rejects_int32", (tensor([[1, 2]], dtype="int32"), 1, t),
             raises="self has an unsupported dtype (got int32, expected float32 or float16)"),
        Case("f16_last_dim", (randn(4, 10, dtype="float16"), -1, t),
             route="softmax_last_dim_f16"),
        Case("f16_attention_vec4", (randn(1, 2, 7, 64, dtype="float16"), 3, t),
             route="softmax_last_dim_vec4_f16"),
        Case("f16_channels", (randn(2, 5, 3, 7, dtype="float16"), 1, t),
             route="softmax_strided_f16"),
        # logits of +-65504 (their differences overflow half, not float32) and the IEEE rows
        Case("f16_extremes", (tensor([[65504.0, -65504.0, 0.0, 1.0], [65504.0, 65504.0, 0.0,
                                                                      -65504.0]],
                                     dtype="float16"), 1, t)),
        Case("f16_ieee_rows", (tensor(IEEE_ROWS, dtype="float16"), 1, t)),
    ]
    if safe:
        return shared + [
            # a NaN beside -inf still makes its line NaN
            Case("nan_among_masked", (tensor([[-INF, NAN, -INF, -INF], [-INF] * 4]), 1, t),
                 route="softmax_last_dim_vec4", atol=0.0, rtol=1e-5),
            # attention scores with fully masked query rows (every key of rows 2 and 5)
            Case("masked_queries", (tensor([[[-INF if r in (2, 5) else (r * 7 + c) % 5 - 2.0
                                              for c in range(12)] for r in range(7)]]), -1, t),
                 route="softmax_last_dim_vec4", atol=1e-6),
        ]
    return shared + [
        Case("half_to_float", (randn(2, 3, dtype="float16"), 1, True),
             raises="half_to_float is not supported (the output has the input's dtype) (got "
                    "true, expected false)"),
    ]


def softmax_op(name: str, target: str, log: bool = False, safe: bool = False) -> Op:
    # _safe_softmax's third argument is `ScalarType? dtype` (the output's dtype, float32
    # here), the others' `bool half_to_float`
    third = ScalarType("dtype") if safe else Bool("half_to_float")
    return Op(
        name=name,
        targets=[target],
        args=[Tensor("self", FLOATS, rank=(1, 8)), Int("dim"), third,
              Output("out", FLOATS)],
        let=LINE_LETS,
        guards=[
            DIM_GUARD,
            *([] if safe else [
                Guard("not half_to_float", "half_to_float",
                      "is not supported (the output has the input's dtype)",
                      got="half_to_float", expected="false")]),
        ],
        shapes={"out": "self.dims"},
        resize="dynamic",
        dispatches=dispatches(log, safe),
        cases=cases(safe),
    )


OPS = [softmax_op("softmax", "aten._softmax.default"),
       softmax_op("log_softmax", "aten._log_softmax.default", log=True),
       softmax_op("safe_softmax", "aten._safe_softmax.default", safe=True)]
