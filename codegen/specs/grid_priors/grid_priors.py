"""grid_priors: ExecuTorch's Vulkan custom op for YOLO's anchor points
(`et_vk.grid_priors(self, stride, offset)`; semantics of its reference implementation in
executorch/backends/vulkan/custom_ops_lib.py).

self is a feature map whose last two dims are H and W (its values are not read); out is
float32 [H * W, 2], row h * W + w holding ((w + offset) * stride, (h + offset) * stride).
One invocation per cell writes its vec2, computed in float32 and stored through the
output's view: float16 outputs (what a force_fp16 graph declares; golden: opgen_ref's,
float16 beside a float16 feature map) on the kernel's float16 twins, each value rounded
to half once (past 65504: inf).
"""

from codegen.language import (F16, F32, I32, Bind, Case, Dispatch, Double, Elementwise, Int,
                              Kernel, Op, Output, Route, Tensor, f32, half_routes, u32)
from codegen.graph.inputs import randint, randn

PRIORS = Kernel("grid_priors", helpers=("../common/each_element.wgsl",))
ROUTE = Route(PRIORS, Elementwise("H * W"))

OPS = [Op(
    name="grid_priors",
    targets=["et_vk.grid_priors.default"],
    args=[Tensor("self", (F32, F16, I32), rank=(2, 8)), Int("stride"), Double("offset"),
          Output("out", (F32, F16), rank=2)],
    golden="opgen_ref.grid_priors.default",
    let={"H": "self.dims[-2]", "W": "self.dims[-1]"},
    shapes={"out": "[H * W, 2]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"W": u32("W"), "num_elements": u32("H * W"), "stride": f32("float(stride)"),
                "offset": f32("offset")},
        bindings=[Bind("output", "out", write=True, view="vec2")],
        routes=[*half_routes([ROUTE], "out"), ROUTE],
    )],
    cases=[
        # a YOLO head's three levels: strides 8, 16, 32 at offset 0.5
        Case("stride_8", (randn(1, 4, 20, 20), 8, 0.5), route="grid_priors", exact=True),
        Case("stride_16_prime", (randn(1, 3, 7, 11), 16, 0.5), exact=True),
        Case("stride_32_rank3", (randn(2, 5, 3), 32, 0.0), exact=True),
        Case("negative_offset", (randn(1, 1, 6, 9), 4, -0.25), exact=True),
        Case("int_feature_map", (randint(0, 9, 1, 2, 5, 5, dtype="int32"), 2, 1.0), exact=True),
        # 80 x 80 cells over several workgroups; float32 rounding of (w + 0.3) * 3
        Case("many_cells", (randn(1, 1, 80, 80), 3, 0.3), exact=True),
        Case("single_cell", (randn(1, 1), 64, 0.5), exact=True),
        # an infinite or NaN offset flows through as float32 arithmetic does (0 * inf: NaN)
        Case("ieee_offsets", (randn(1, 3, 4), 8, float("-inf")), exact=True),
        Case("nan_offset", (randn(1, 2, 3), 8, float("nan")), exact=True),
        Case("zero_stride_inf_offset", (randn(1, 2, 3), 0, float("inf")), exact=True),
        Case("empty", (randn(1, 0, 4), 8, 0.5), exact=True),
        Case("resize", (randn(1, 4, 20, 20), 8, 0.5), resize={"self": (1, 4, 10, 13)},
             exact=True),
        Case("rank1", (randn(5), 8, 0.5), raises="self has the wrong rank (got 1, expected 2..8)"),
        # float16 points (a float16 feature map): 80 x 80 cells at stride 3, offset 0.3
        # (most points round), 1000 x 70 at stride 80 (y past 65504: inf), tiny offsets
        Case("f16_stride_8", (randn(1, 4, 20, 20, dtype="float16"), 8, 0.5),
             route="grid_priors_f16", exact=True),
        Case("f16_rounded", (randn(1, 1, 80, 80, dtype="float16"), 3, 0.3),
             route="grid_priors_f16", exact=True),
        Case("f16_overflow", (randn(1, 1000, 7, dtype="float16"), 80, 0.5), exact=True),
        Case("f16_subnormal", (randn(1, 2, 3, dtype="float16"), 1, 2.0 ** -24), exact=True),
    ],
)]
