"""upsample_bilinear2d: each output pixel blends its four source neighbours.

The source index follows ATen's area_pixel_compute_source_index: with align_corners
src = dst * (in - 1) / (out - 1); without, src = (dst + 0.5) * scale - 0.5 clamped at
0, where scale is 1 / scale_factor when one is given, else in / out.
"""

from codegen.language import (F16, F32, Bind, Bool, Case, Dispatch, DoubleList, Elementwise,
                              IntList, Kernel, Op, Output, Route, Tensor, f32, half_routes, u32)
from codegen.graph.inputs import randn
from codegen.specs.common._upsample import OUT_SHAPE, size_guards, size_lets

FLOATS = (F32, F16)  # float16: the kernel's float16 twins (computed in float32)

BILINEAR = Kernel("upsample_bilinear2d", helpers=("../common/each_element.wgsl",))
ROUTE = Route(BILINEAR, Elementwise("out.numel"))


def scale(axis: int, size_in: str, size_out: str) -> str:
    """ATen's area_pixel_compute_scale for one axis (host side, float64)."""
    return (f"(float({size_in} - 1) / ({size_out} - 1) if {size_out} > 1 else 0.0) "
            f"if align_corners else (1.0 / scale_factors[{axis}] if len(scale_factors) == 2 "
            f"and scale_factors[{axis}] > 0.0 else float({size_in}) / max({size_out}, 1))")


OPS = [Op(
    name="upsample_bilinear2d",
    targets=["aten.upsample_bilinear2d.vec"],
    args=[Tensor("input", FLOATS, rank=4), IntList("output_size", optional=True),
          Bool("align_corners"),
          DoubleList("scale_factors", optional=True), Output("out", FLOATS, rank=4)],
    let={
        "IH": "input.dims[2]",
        "IW": "input.dims[3]",
        **size_lets("IH", "IW"),
    },
    guards=size_guards("IH", "IW"),
    shapes={"out": OUT_SHAPE},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "IH": u32("IH"),
            "IW": u32("IW"),
            "OH": u32("out.dims[2]"),
            "OW": u32("out.dims[3]"),
            "scale_h": f32(scale(0, "IH", "out.dims[2]")),
            "scale_w": f32(scale(1, "IW", "out.dims[3]")),
            "align_corners": u32("align_corners"),
            "num_elements": u32("out.numel"),
        },
        bindings=[Bind("input", "input", view="scalar"),
                  Bind("output", "out", write=True, view="scalar")],
        routes=[*half_routes([ROUTE], "input"), ROUTE],
    )],
    cases=[
        Case("dpt_2x", (randn(1, 8, 6, 6), [12, 12], False, None), route="upsample_bilinear2d"),
        # float16: weights and sums in float32, one rounding
        Case("f16_dpt_2x", (randn(1, 8, 6, 6, dtype="float16"), [12, 12], False, None),
             route="upsample_bilinear2d_f16"),
        Case("f16_align_corners", (randn(1, 2, 5, 7, dtype="float16"), [9, 4], True, None)),
        Case("align_corners", (randn(1, 4, 6, 6), [12, 12], True, None)),
        Case("non_2x_ratio", (randn(2, 3, 5, 5), [8, 8], False, None)),
        Case("non_2x_ratio_align_corners", (randn(2, 3, 5, 5), [8, 8], True, None)),
        Case("scale_factors", (randn(1, 2, 5, 4), None, False, [1.5, 2.5])),
        Case("scale_factors_align_corners", (randn(1, 2, 5, 4), None, True, [1.5, 2.0])),
        Case("downsample", (randn(1, 3, 9, 7), [4, 3], False, None)),
        Case("to_one_pixel", (randn(1, 2, 4, 4), [1, 1], True, None)),
        Case("resize", (randn(1, 4, 4, 4), None, False, [2.0, 2.0]),
             resize={"input": (1, 2, 3, 3)}),
        Case("no_size", (randn(1, 2, 3, 3), None, False, None),
             raises="output_size and scale_factors are both missing (got 0, expected 2 output "
                    "sizes or 2 scale factors)"),
        Case("empty_spatial", (randn(1, 2, 0, 4), [4, 4], False, None),
             raises="input has an empty spatial dim (got [1, 2, 0, 4], expected non-zero H and W)"),
    ],
)]
