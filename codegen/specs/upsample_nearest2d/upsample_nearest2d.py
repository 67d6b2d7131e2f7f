"""upsample_nearest2d: ATen's legacy nearest rule ih = floor(oh * IH / OH)."""

from codegen.language import (F16, F32, Bind, Case, Dispatch, DoubleList, Elementwise, IntList,
                              Kernel, Op, Output, Route, Tensor, half_routes, u32)
from codegen.graph.inputs import randn
from codegen.specs.common._upsample import OUT_SHAPE, size_guards, size_lets

FLOATS = (F32, F16)  # float16: the kernel's float16 twins (computed in float32)

NEAREST = Kernel("upsample_nearest2d")
ROUTE = Route(NEAREST, Elementwise("ceil_div(out.numel, 4)"))

OPS = [Op(
    name="upsample_nearest2d",
    targets=["aten.upsample_nearest2d.vec"],
    args=[Tensor("input", FLOATS, rank=4), IntList("output_size", optional=True),
          DoubleList("scale_factors", optional=True), Output("out", FLOATS, rank=4)],
    let=size_lets("input.dims[2]", "input.dims[3]"),
    guards=size_guards("input.dims[2]", "input.dims[3]"),
    shapes={"out": OUT_SHAPE},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "C": u32("input.dims[1]"),
            "IH": u32("input.dims[2]"),
            "IW": u32("input.dims[3]"),
            "OH": u32("out.dims[2]"),
            "OW": u32("out.dims[3]"),
            "num_elements": u32("out.numel"),
            # the source column advances by IW / OW per output column (quotient, remainder)
            "col_step": u32("input.dims[3] // max(out.dims[3], 1)"),
            "col_rem": u32("input.dims[3] % max(out.dims[3], 1)"),
        },
        bindings=[Bind("input", "input", view="scalar"),
                  Bind("output", "out", write=True, view="vec4")],
        routes=[*half_routes([ROUTE], "input"), ROUTE],
    )],
    cases=[
        Case("fpn_2x", (randn(1, 8, 6, 6), [12, 12], None), route="upsample_nearest2d", exact=True),
        Case("non_2x_ratio", (randn(2, 3, 5, 5), [8, 8], None), exact=True),
        Case("f16_fpn_2x", (randn(1, 8, 6, 6, dtype="float16"), [12, 12], None),
             route="upsample_nearest2d_f16", exact=True),
        Case("f16_non_2x_ratio", (randn(2, 3, 5, 5, dtype="float16"), [8, 8], None), exact=True),
        Case("scale_factors", (randn(1, 4, 3, 5), None, [2.0, 3.0]), exact=True),
        Case("downsample", (randn(1, 2, 9, 7), [4, 3], None), exact=True),
        Case("resize", (randn(1, 4, 4, 4), None, [2.0, 2.0]), resize={"input": (1, 2, 3, 3)},
             exact=True),
        Case("no_size", (randn(1, 2, 3, 3), None, None),
             raises="output_size and scale_factors are both missing (got 0, expected 2 output "
                    "sizes or 2 scale factors)"),
        Case("empty_spatial", (randn(1, 2, 0, 4), [4, 4], None),
             raises="input has an empty spatial dim (got [1, 2, 0, 4], expected non-zero H and W)"),
    ],
)]
