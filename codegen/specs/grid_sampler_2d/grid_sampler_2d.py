"""grid_sampler_2d: F.grid_sample on 4-D input, bilinear or nearest, zeros, border or
reflection padding, either align_corners (bicubic is refused).

grid [N, OH, OW, 2] holds (x, y) in [-1, 1]; out [N, C, OH, OW]. One invocation per output
pixel computes its source coordinates once and samples every channel. The coordinate
arithmetic follows torch's CPU kernel, NaN and infinite grid values included (zeros
padding: NaN from a bilinear weight, 0 from nearest; border and reflection clip a NaN
coordinate to 0). float32, or float16 (input and grid alike) on the kernel's float16
twins: coordinates and weights computed in f32 from the widened halves, each output
rounded to half once.
"""

from codegen.language import (F16, F32, Bind, Bool, Case, Dispatch, Elementwise, Guard, Int,
                              Kernel, Op, Output, Override, Route, Tensor, half_routes,
                              same_dtype, u32)
from codegen.graph.inputs import rand, randn, tensor

NAN, INF = float("nan"), float("inf")
SAMPLER = Kernel("grid_sampler_2d", workgroup=(64, 1, 1),
                 overrides={"NEAREST": Override("bool", False), "PADDING": Override("u32", 0),
                            "ALIGN_CORNERS": Override("bool", False)})


def grid(*shape, margin: float = 1.2, dtype: str = "float32"):
    """Grid values spanning past the edges by `margin`, so every padding mode is exercised."""
    return rand(*shape, low=-margin, high=margin, dtype=dtype)


# (x, y) pairs: NaN and infinities on either axis, far outside, the edges and the centre,
# ties for nearest (a pixel centre half-way between two)
SPECIAL_GRID_VALUES = [[[[NAN, 0.0], [INF, 0.0], [-INF, 0.0], [0.0, NAN], [2.5, -3.0],
                         [1e30, 0.5], [-0.0, -0.0], [1.0, 1.0], [-1.0, -1.0], [0.0, INF],
                         [-1e30, -1e30], [0.5, -0.5]]]]
SPECIAL_GRID = tensor(SPECIAL_GRID_VALUES)
# an image holding IEEE specials: a zero bilinear weight on an infinity gives NaN, as torch
SPECIAL_IMAGE = tensor([[[[1.0, INF, 3.0, -0.0], [NAN, 5.0, -INF, 7.0], [8.0, 9.0, 10.0, 11.0]]]])


def sampler_cases() -> list[Case]:
    tol = {"atol": 1e-5, "rtol": 1e-5}
    cases = [
        Case("bilinear_zeros", (randn(2, 3, 5, 7), grid(2, 4, 6, 2), 0, 0, False),
             route="grid_sampler_2d", **tol),
        Case("bilinear_zeros_aligned", (randn(1, 2, 6, 5), grid(1, 7, 3, 2), 0, 0, True), **tol),
        Case("bilinear_border", (randn(2, 3, 5, 7), grid(2, 4, 6, 2), 0, 1, False), **tol),
        # Depth-Anything / SAM style: align_corners, border
        Case("bilinear_border_aligned", (randn(1, 4, 8, 8), grid(1, 5, 5, 2), 0, 1, True), **tol),
        Case("bilinear_reflection", (randn(1, 2, 5, 7), grid(1, 9, 4, 2, margin=3.5), 0, 2,
                                     False), **tol),
        Case("bilinear_reflection_aligned", (randn(1, 2, 5, 7), grid(1, 9, 4, 2, margin=3.5),
                                             0, 2, True), **tol),
        Case("nearest_zeros", (randn(2, 3, 5, 7), grid(2, 4, 6, 2), 1, 0, False), **tol),
        Case("nearest_border_aligned", (randn(1, 3, 4, 6), grid(1, 5, 3, 2), 1, 1, True), **tol),
        Case("nearest_reflection", (randn(1, 2, 5, 3), grid(1, 6, 7, 2, margin=3.5), 1, 2,
                                    False), **tol),
        # prime sizes, one pixel wide inputs (a reflection with nothing to span)
        Case("prime_shapes", (randn(1, 5, 7, 11), grid(1, 13, 3, 2), 0, 1, False), **tol),
        Case("one_pixel_reflection", (randn(1, 2, 1, 1), grid(1, 3, 2, 2), 0, 2, True), **tol),
        Case("many_pixels", (randn(1, 2, 9, 9), grid(1, 31, 17, 2), 0, 0, False), **tol),
        Case("resize", (randn(2, 3, 6, 7), grid(2, 5, 6, 2), 0, 1, False),
             resize={"input": (1, 3, 4, 5), "grid": (1, 3, 2, 2)}, **tol),
        Case("bicubic", (randn(1, 1, 3, 3), grid(1, 2, 2, 2), 2, 0, False),
             raises="interpolation_mode is not supported (got 2, expected 0 (bilinear) or 1 "
                    "(nearest))"),
        Case("unknown_padding", (randn(1, 1, 3, 3), grid(1, 2, 2, 2), 0, 3, False),
             raises="padding_mode is not supported (got 3, expected 0 (zeros), 1 (border) or "
                    "2 (reflection))"),
        Case("batch_mismatch", (randn(2, 1, 3, 3), grid(1, 2, 2, 2), 0, 0, False),
             raises="grid has a different batch from input (got 1, expected 2)"),
        Case("grid_not_pairs", (randn(1, 1, 3, 3), grid(1, 2, 2, 3), 0, 0, False),
             raises="grid does not hold (x, y) pairs (got [1, 2, 2, 3], expected a last dim "
                    "of 2)"),
        Case("empty_input", (randn(1, 1, 0, 3), grid(1, 2, 2, 2), 0, 0, False),
             raises="input has an empty image (got [1, 1, 0, 3], expected non-zero height and "
                    "width)"),
        Case("rank3_grid", (randn(1, 1, 3, 3), grid(1, 2, 2), 0, 0, False),
             raises="grid has the wrong rank (got 3, expected 4)"),
    ]
    # float16: input and grid halves (1e30 in the special grid is inf), f32 weights
    half = {"dtype": "float16"}
    cases += [
        Case("f16_bilinear_zeros", (randn(2, 3, 5, 7, **half), grid(2, 4, 6, 2, **half), 0, 0,
                                    False), route="grid_sampler_2d_f16"),
        Case("f16_bilinear_reflection_aligned", (randn(1, 2, 5, 7, **half),
                                                 grid(1, 9, 4, 2, margin=3.5, **half), 0, 2,
                                                 True)),
        Case("f16_nearest_border", (randn(1, 3, 4, 6, **half), grid(1, 5, 3, 2, **half), 1, 1,
                                    False), route="grid_sampler_2d_f16"),
        # rows of 65504 (weights sum to 1: no overflow), of 2^-24 (half weights: 2^-25 ties
        # to 0), NaN and infinities
        Case("f16_extremes", (tensor([[[[65504.0, 65504.0, -65504.0], [2.0 ** -24, 2.0 ** -24, 0.0],
                                        [NAN, INF, -INF]]]], dtype="float16"),
                              grid(1, 6, 5, 2, **half), 0, 1, True),
             route="grid_sampler_2d_f16"),
        Case("f16_ieee_grid", (randn(1, 2, 3, 4, **half), tensor(SPECIAL_GRID_VALUES,
                                                                 dtype="float16"), 0, 0, False)),
        Case("rejects_mixed_dtypes", (randn(1, 1, 3, 3, **half), grid(1, 2, 2, 2), 0, 0, False),
             raises="input does not share its dtype with grid (got float16, expected the dtype "
                    "of grid)"),
    ]
    for mode, mode_name in enumerate(("bilinear", "nearest")):
        for padding, padding_name in enumerate(("zeros", "border", "reflection")):
            for align in (False, True):
                name = f"ieee_grid_{mode_name}_{padding_name}{'_aligned' if align else ''}"
                cases.append(Case(name, (randn(1, 2, 3, 4), SPECIAL_GRID, mode, padding, align),
                                  **tol))
        cases.append(Case(f"ieee_image_{mode_name}", (SPECIAL_IMAGE, grid(1, 5, 5, 2), mode, 0,
                                                      False), **tol))
    return cases


ROUTE = Route(SAMPLER, Elementwise("N * OH * OW"),
              overrides={"NEAREST": "interpolation_mode == 1", "PADDING": "padding_mode",
                         "ALIGN_CORNERS": "align_corners"})

OPS = [Op(
    name="grid_sampler_2d",
    targets=["aten.grid_sampler_2d.default"],
    args=[Tensor("input", (F32, F16), rank=4), Tensor("grid", (F32, F16), rank=4),
          Int("interpolation_mode"), Int("padding_mode"), Bool("align_corners"),
          Output("out", (F32, F16), rank=4)],
    let={"N": "input.dims[0]", "C": "input.dims[1]", "IH": "input.dims[2]",
         "IW": "input.dims[3]", "OH": "grid.dims[1]", "OW": "grid.dims[2]"},
    guards=[
        Guard("interpolation_mode == 0 or interpolation_mode == 1", "interpolation_mode",
              "is not supported", got="interpolation_mode",
              expected="0 (bilinear) or 1 (nearest)"),
        Guard("padding_mode >= 0 and padding_mode <= 2", "padding_mode", "is not supported",
              got="padding_mode", expected="0 (zeros), 1 (border) or 2 (reflection)"),
        Guard("grid.dims[0] == N", "grid", "has a different batch from input",
              got="grid.dims[0]", expected="{N}"),
        Guard("grid.dims[3] == 2", "grid", "does not hold (x, y) pairs", got="grid.dims",
              expected="a last dim of 2"),
        Guard("IH > 0 and IW > 0", "input", "has an empty image", got="input.dims",
              expected="non-zero height and width"),
        same_dtype("input", ["grid"]),
    ],
    shapes={"out": "[N, C, OH, OW]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"C": u32("C"), "IH": u32("IH"), "IW": u32("IW"), "OH": u32("OH"),
                "OW": u32("OW"), "num_pixels": u32("N * OH * OW")},
        bindings=[Bind("input", "input", view="scalar"), Bind("grid", "grid", view="vec2"),
                  Bind("output", "out", write=True, view="scalar")],
        routes=[*half_routes([ROUTE], "input"), ROUTE],
    )],
    cases=sampler_cases(),
)]
