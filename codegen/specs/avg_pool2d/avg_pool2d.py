"""avg_pool2d: one invocation per output element sums its window.

Everything torch's avg_pool2d takes is served: kernel, stride (empty: the kernel),
padding, ceil_mode, count_include_pad and divisor_override. As torch: the divisor is
divisor_override when given, else the window clipped to the padded input
(count_include_pad) or to the input itself; a window that covers no input cell gives 0.
"""

from codegen.language import (F16, F32, Bind, Bool, Case, Dispatch, Elementwise, Guard, Int,
                              IntList, Kernel, Op, Output, Route, Tensor, half_routes, i32, u32)
from codegen.graph.inputs import randn, tensor
from codegen.specs.common._pool import (OUT_SHAPE, OUTPUT_GUARD, PADDING_GUARD, WINDOW_CASES,
                                        WINDOW_GUARDS, WINDOW_PARAMS, window_lets)

FLOATS = (F32, F16)  # float16: the kernel's float16 twins (computed in float32)

AVG_POOL = Kernel("avg_pool2d", helpers=("../common/each_element.wgsl",))
ROUTE = Route(AVG_POOL, Elementwise("out.numel"))
NAN, INF = float("nan"), float("inf")


def out_size(axis: int, size: str) -> str:
    """torch's pooling formula for one spatial axis: in ceil mode a last window that
    would start in the right padding is dropped."""
    k, s, p = f"kernel_size[{axis}]", f"strides[{axis}]", f"padding[{axis}]"
    raw = f"(({size} + 2 * {p} - {k} + ({s} - 1 if ceil_mode else 0)) // max({s}, 1) + 1)"
    return f"{raw} - (1 if ceil_mode and ({raw} - 1) * {s} >= {size} + {p} else 0)"


OPS = [Op(
    name="avg_pool2d",
    targets=["aten.avg_pool2d.default"],
    args=[Tensor("self", FLOATS, rank=(3, 4)), IntList("kernel_size", hw=True),
          IntList("stride"),
          IntList("padding", hw=True), Bool("ceil_mode"), Bool("count_include_pad"),
          Int("divisor_override", optional=True), Output("out", FLOATS, rank=(3, 4))],
    let=window_lets(out_size),
    guards=[
        *WINDOW_GUARDS,
        PADDING_GUARD,
        Guard("divisor_override is None or divisor_override != 0", "divisor_override",
              "is zero", got="divisor_override", expected="None or a non-zero divisor"),
        OUTPUT_GUARD,
    ],
    shapes={"out": OUT_SHAPE},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            **WINDOW_PARAMS,
            "num_elements": u32("out.numel"),
            "count_include_pad": u32("count_include_pad"),
            # 0: no override (a zero override is refused above)
            "divisor": i32("0 if divisor_override is None else divisor_override"),
        },
        bindings=[Bind("input", "self", view="scalar"),
                  Bind("output", "out", write=True, view="scalar")],
        routes=[*half_routes([ROUTE], "self"), ROUTE],
    )],
    cases=[
        Case("pool_2x2", (randn(1, 4, 8, 8), [2, 2], [2, 2]), route="avg_pool2d", atol=1e-5),
        Case("pad_3x3_s2", (randn(2, 3, 9, 9), [3, 3], [2, 2], [1, 1]), atol=1e-5),
        Case("pad_excluded", (randn(2, 3, 9, 9), [3, 3], [2, 2], [1, 1], False, False),
             atol=1e-5),
        Case("odd_prime_shapes", (randn(1, 3, 13, 11), [3, 2], [2, 3], [1, 1]), atol=1e-5),
        Case("ceil_mode", (randn(1, 2, 7, 8), [3, 3], [2, 2], [0, 0], True), atol=1e-5),
        Case("ceil_mode_pad_excluded", (randn(1, 2, 10, 7), [3, 2], [2, 2], [1, 1], True, False),
             atol=1e-5),
        Case("divisor_override", (randn(1, 2, 6, 7), [3, 3], [2, 2], [1, 1], True, True, 5),
             atol=1e-5),
        Case("negative_divisor", (randn(1, 2, 6, 6), [2, 2], [2, 2], [0, 0], False, True, -3),
             atol=1e-5),
        Case("empty_stride", (randn(1, 2, 7, 6), [3, 2], []), atol=1e-5),
        Case("one_kernel_value", (randn(3, 6, 6), [2], [1]), atol=1e-5),
        # 2 x 8 x 10 x 10 = 1600 outputs: several workgroups
        Case("several_workgroups", (randn(2, 8, 20, 20), [2, 2], [2, 2]), atol=1e-5),
        # windows (2x2, stride 2): a NaN, +inf with -inf, +inf alone, all finite
        Case("ieee_specials", (tensor([[[[1.0, NAN, 3.0, 0.5], [2.0, 0.0, 1.0, 2.0],
                                          [INF, 1.0, INF, 1.0], [-INF, 2.0, 5.0, 2.0]]]]),
                               [2, 2], [2, 2]), atol=1e-6),
        Case("resize", (randn(1, 2, 8, 8), [2, 2], [2, 2]), resize={"self": (1, 2, 6, 4)},
             atol=1e-5),
        *WINDOW_CASES,
        Case("padding_too_large", (randn(1, 1, 6, 6), [2, 2], [1, 1], [2, 0]),
             raises="padding is negative or more than half the kernel (got [2, 0], expected at "
                    "most [1, 1])"),
        Case("zero_divisor", (randn(1, 1, 4, 4), [2, 2], [2, 2], [0, 0], False, True, 0),
             raises="divisor_override is zero (got 0, expected None or a non-zero divisor)"),
        Case("window_too_large", (randn(1, 1, 2, 2), [3, 3]),
             raises="self is smaller than the pooling window (got [1, 1, 2, 2], expected an "
                    "output of at least 1x1)"),
        # float16: float32 sums, one rounding; windows of 65504 (their sum overflows half)
        Case("f16_pad_3x3_s2", (randn(2, 3, 9, 9, dtype="float16"), [3, 3], [2, 2], [1, 1]),
             route="avg_pool2d_f16"),
        Case("f16_large", (tensor([[[[65504.0, 65504.0], [65504.0, -2.0 ** -24]]]],
                                  dtype="float16"), [2, 2]), exact=True),
        Case("rejects_int32", (tensor([[[[1, 2], [3, 4]]]], dtype="int32"), [2, 2]),
             raises="self has an unsupported dtype (got int32, expected float32 or float16)"),
    ],
)]
