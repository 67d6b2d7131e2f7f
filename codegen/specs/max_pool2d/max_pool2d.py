"""max_pool2d_with_indices: one thread per output element scans its window.

Argmax is always tracked; the `write_indices` override gates only the index store, so
values are bit-identical with and without indices (a dummy buffer is bound when the
graph does not request them). Indices are int32 flat offsets ih * IW + iw in the plane.
"""

from codegen.language import (F16, F32, I32, Bind, Bool, Case, Dispatch, Elementwise, Guard,
                              IntList, Kernel, Op, Output, Outputs, Override, Route, Tensor,
                              half_routes, u32)
from codegen.graph.inputs import randn, tensor
from codegen.specs.common._pool import (OUT_SHAPE, OUTPUT_GUARD, PADDING_GUARD, WINDOW_CASES,
                                        WINDOW_GUARDS, WINDOW_PARAMS, window_lets)

FLOATS = (F32, F16)  # float16: the kernel's float16 twins (computed in float32)

MAX_POOL = Kernel("max_pool2d", helpers=("../common/each_element.wgsl",),
                  overrides={"write_indices": Override("bool", True)})
ROUTE = Route(MAX_POOL, Elementwise("out.numel"), overrides={"write_indices": "indices.present"})

NAN, INF = float("nan"), float("inf")


def out_size(axis: int, size: str) -> str:
    """The pooling formula (floor mode) for one spatial axis."""
    return (f"(({size} + 2 * padding[{axis}] - dilation[{axis}] * (kernel_size[{axis}] - 1) - 1) "
            f"// max(strides[{axis}], 1)) + 1")


OPS = [Op(
    name="max_pool2d_with_indices",
    targets=["aten.max_pool2d_with_indices.default"],
    args=[Tensor("self", FLOATS, rank=(3, 4)), IntList("kernel_size", hw=True),
          IntList("stride"),
          IntList("padding", hw=True), IntList("dilation", hw=True), Bool("ceil_mode"),
          Outputs("outputs", items=(Output("out", FLOATS, rank=(3, 4)),
                                    Output("indices", dtypes=(I32,), rank=(3, 4), optional=True)))],
    let=window_lets(out_size),
    guards=[
        *WINDOW_GUARDS,
        Guard("min(dilation) > 0", "dilation", "is not positive", got="dilation",
              expected="dilations >= 1"),
        PADDING_GUARD,
        Guard("not ceil_mode", "ceil_mode", "is not supported", got="ceil_mode",
              expected="false"),
        OUTPUT_GUARD,
    ],
    shapes={"out": OUT_SHAPE, "indices": OUT_SHAPE},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            **WINDOW_PARAMS,
            "dH": u32("dilation[0]"), "dW": u32("dilation[1]"),
            "num_elements": u32("out.numel"),
        },
        bindings=[Bind("input", "self", view="scalar"),
                  Bind("output", "out", write=True, view="scalar"),
                  Bind("indices", "indices", write=True)],
        routes=[*half_routes([ROUTE], "self"), ROUTE],
    )],
    cases=[
        Case("pool_2x2", (randn(1, 4, 8, 8), [2, 2], [2, 2]), route="max_pool2d", exact=True),
        Case("hiera_q_pool_3x3_s2_p1", (randn(2, 3, 9, 9), [3, 3], [2, 2], [1, 1]), exact=True),
        Case("dilation", (randn(1, 2, 10, 9), [3, 2], [1, 2], [1, 0], [2, 3]), exact=True),
        Case("empty_stride", (randn(1, 2, 7, 6), [3, 2], []), exact=True),
        Case("rank3", (randn(3, 6, 6), [2], [1]), exact=True),
        Case("nan_propagation", (tensor([[[[1.0, NAN, 3.0, 0.5], [NAN, 0.0, 1.0, 2.0],
                                           [2.0, 2.0, NAN, -1.0], [4.0, -2.0, 5.0, NAN]]]]),
                                 [2, 2], [1, 1]), exact=True),
        # windows (2x2, stride 2): all -inf -> -inf; -0.0 before 0.0 -> the first one
        # (torch keeps the first of equal values); inf with NaN -> NaN; a finite max
        Case("ieee_specials", (tensor([[[[-INF, -INF, -0.0, 0.0], [-INF, -INF, -0.0, -1.0],
                                          [INF, NAN, 0.0, -0.0], [1.0, INF, -INF, 3.4e38]]]]),
                               [2, 2], [2, 2]), exact=True),
        Case("without_indices", (randn(1, 4, 8, 8), [3, 3], [2, 2], [1, 1]),
             absent_outputs=("indices",), exact=True),
        Case("resize", (randn(1, 2, 8, 8), [2, 2], [2, 2]), resize={"self": (1, 2, 6, 4)},
             exact=True),
        # float16: values move unrounded; 65504, infinities and subnormal halves kept
        Case("f16_pool_3x3_s2_p1", (randn(2, 3, 9, 9, dtype="float16"), [3, 3], [2, 2], [1, 1]),
             route="max_pool2d_f16", exact=True),
        Case("f16_specials", (tensor([[[[-INF, 65504.0, 2.0 ** -24, NAN], [-65504.0, -0.0, 1.0,
                                                                         0.5]]]],
                                     dtype="float16"), [2, 2], [2, 2]), exact=True),
        *WINDOW_CASES,
        Case("zero_dilation", (randn(1, 1, 4, 4), [2, 2], [1, 1], [0, 0], [1, 0]),
             raises="dilation is not positive (got [1, 0], expected dilations >= 1)"),
        Case("padding_too_large", (randn(1, 1, 6, 6), [2, 2], [1, 1], [2, 0]),
             raises="padding is negative or more than half the kernel (got [2, 0], expected at "
                    "most [1, 1])"),
        Case("ceil_mode", (randn(1, 1, 5, 5), [2, 2], [2, 2], [0, 0], [1, 1], True),
             raises="ceil_mode is not supported (got true, expected false)"),
        Case("window_too_large", (randn(1, 1, 2, 2), [3, 3]),
             raises="self is smaller than the pooling window (got [1, 1, 2, 2], expected an "
                    "output of at least 1x1)"),
    ],
)]
