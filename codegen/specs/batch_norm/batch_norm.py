"""Inference batch norm: y = (x - mean) / sqrt(var + eps) * weight + bias, per channel.

Any rank from 2 to 5 (BatchNorm1d's [N, C] and [N, C, L], BatchNorm2d, BatchNorm3d): the
channel is dim 1 and each channel's elements are contiguous runs of `plane` = the product
of the dims after it (1 for [N, C]).

weight/bias are optional (unit scale / zero shift, a dummy binding when absent). Of the
three outputs only `out` is written: save_mean/save_invstd are unused in inference.
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Double, Elementwise, Guard, Kernel,
                              Op, Output, Outputs, Route, Tensor, f32, half_routes, same_dtype,
                              u32)
from codegen.graph.inputs import rand, randn

BATCH_NORM = Kernel("batch_norm", workgroup=(128, 1, 1),
                    helpers=("../common/map_vec4s.wgsl", "../common/vec4_views.wgsl"))
ROUTE = Route(BATCH_NORM, Elementwise("ceil_div(out.numel, 4)", per_invocation=4))
FLOATS = (F32, F16)


def per_channel(name: str, optional: bool = False) -> Guard:
    check = f"{name}.numel == C"
    return Guard(f"not {name}.present or {check}" if optional else check, name,
                 "does not hold one value per channel", got=f"{name}.dims",
                 expected="{C} values")


OPS = [Op(
    name="batch_norm",
    targets=["aten._native_batch_norm_legit_no_training.default"],
    args=[Tensor("input", FLOATS, rank=(2, 5)), Tensor("weight", FLOATS, rank=1, optional=True),
          Tensor("bias", FLOATS, rank=1, optional=True), Tensor("running_mean", FLOATS, rank=1),
          Tensor("running_var", FLOATS, rank=1), Double("momentum"), Double("eps"),
          Outputs("outputs", items=(Output("out", FLOATS, rank=(2, 5)),
                                    Output("save_mean", FLOATS, optional=True, unused=True),
                                    Output("save_invstd", FLOATS, optional=True, unused=True)))],
    let={"C": "input.dims[1]"},
    guards=[per_channel("running_mean"), per_channel("running_var"),
            per_channel("weight", optional=True), per_channel("bias", optional=True),
            same_dtype("input", ["running_mean", "running_var"], optional=["weight", "bias"])],
    shapes={"out": "input.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "C": u32("C"),
            "plane": u32("prod(input.dims[2:])"),
            "num_elements": u32("out.numel"),
            "num_vec4": u32("ceil_div(out.numel, 4)"),
            "eps": f32("eps"),
            "has_weight": u32("weight.present"),
            "has_bias": u32("bias.present"),
        },
        bindings=[Bind("input", "input", view="vec4"), Bind("weight", "weight", view="scalar"),
                  Bind("bias", "bias", view="scalar"), Bind("mean", "running_mean", view="scalar"),
                  Bind("variance", "running_var", view="scalar"),
                  Bind("output", "out", write=True, view="vec4")],
        routes=[*half_routes([ROUTE], "input"), ROUTE],
    )],
    cases=[
        Case("affine", (randn(2, 8, 6, 6), randn(8), randn(8), randn(8), rand(8, low=0.5, high=2.0),
                        0.1, 1e-5), route="batch_norm"),
        Case("non_affine", (randn(1, 4, 5, 5), None, None, randn(4), rand(4, low=0.5, high=2.0),
                            0.1, 1e-5)),
        # planes of 35: vec4s cross channel planes
        Case("odd_hw", (randn(1, 3, 7, 5), randn(3), randn(3), randn(3), rand(3, low=0.1, high=1.0),
                        0.1, 1e-3)),
        Case("weight_only", (randn(1, 5, 3, 3), randn(5), None, randn(5),
                             rand(5, low=0.5, high=2.0), 0.1, 1e-5)),
        # 773 vec4s: lanes of the second workgroup store 3 or 2 vec4s
        Case("partial_invocation", (randn(1, 773, 2, 2), None, None, randn(773),
                                    rand(773, low=0.5, high=2.0), 0.1, 1e-5)),
        Case("resize", (randn(2, 4, 6, 6), randn(4), randn(4), randn(4), rand(4, low=0.5, high=2.0),
                        0.1, 1e-5), resize={"input": (1, 4, 3, 5)}),
        # BatchNorm1d: planes of 1 ([N, C]) and of L ([N, C, L]); vec4s span channels
        Case("rank2", (randn(3, 10), randn(10), randn(10), randn(10), rand(10, low=0.5, high=2.0),
                       0.1, 1e-5)),
        Case("rank2_non_affine", (randn(5, 7), None, None, randn(7), rand(7, low=0.5, high=2.0),
                                  0.1, 1e-5)),
        Case("rank3", (randn(2, 6, 5), randn(6), randn(6), randn(6), rand(6, low=0.5, high=2.0),
                       0.1, 1e-5)),
        Case("rank3_resize", (randn(2, 6, 9), randn(6), randn(6), randn(6),
                              rand(6, low=0.5, high=2.0), 0.1, 1e-5), resize={"input": (1, 6, 7)}),
        Case("rank5", (randn(1, 3, 2, 3, 5), randn(3), randn(3), randn(3),
                       rand(3, low=0.5, high=2.0), 0.1, 1e-5)),
        Case("f16", (randn(2, 8, 6, 6, dtype="float16"), randn(8, dtype="float16"),
                      randn(8, dtype="float16"), randn(8, dtype="float16"),
                      rand(8, low=0.5, high=2.0, dtype="float16"), 0.1, 1e-5),
             route="batch_norm_f16"),
        Case("f16_odd_hw", (randn(1, 3, 7, 5, dtype="float16"), None, None,
                            randn(3, dtype="float16"), rand(3, low=0.1, high=1.0, dtype="float16"),
                            0.1, 1e-3)),
        Case("rejects_mixed_dtypes", (randn(1, 4, 3, 3, dtype="float16"), None, None, randn(4),
                                      rand(4), 0.1, 1e-5),
             raises="input does not share its dtype with running_mean, running_var, weight and "
                    "bias (got float16, expected the dtype of running_mean, running_var, weight "
                    "and bias)"),
        Case("rejects_rank1", (randn(4), None, None, randn(4), rand(4), 0.1, 1e-5),
             raises="input has the wrong rank (got 1, expected 2..5)"),
        Case("mean_size", (randn(1, 4, 3, 3), None, None, randn(3), rand(4), 0.1, 1e-5),
             raises="running_mean does not hold one value per channel (got [3], expected 4 "
                    "values)"),
        Case("var_size", (randn(1, 4, 3, 3), None, None, randn(4), rand(5), 0.1, 1e-5),
             raises="running_var does not hold one value per channel (got [5], expected 4 values)"),
        Case("weight_size", (randn(1, 4, 3, 3), randn(2), None, randn(4), rand(4), 0.1, 1e-5),
             raises="weight does not hold one value per channel (got [2], expected 4 values)"),
        Case("bias_size", (randn(1, 4, 3, 3), None, randn(6), randn(4), rand(4), 0.1, 1e-5),
             raises="bias does not hold one value per channel (got [6], expected 4 values)"),
    ],
)]
