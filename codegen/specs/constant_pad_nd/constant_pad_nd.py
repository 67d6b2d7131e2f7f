"""constant_pad_nd: pad (or fill around) a rank 1..4 tensor with a constant.

Dims are right-aligned into four slots so one kernel serves every rank; `pad` lists
(left, right) pairs starting from the last dim.
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Elementwise, Guard, IntList, Kernel,
                              Op, Output, Param, Route, Scalar, Tensor, f32, half_routes, u32)
from codegen.graph.inputs import randn

FLOATS = (F32, F16)  # float16: the kernel's float16 twins (computed in float32)

PAD = Kernel("constant_pad_nd")
ROUTE = Route(PAD, Elementwise("ceil_div(out.numel, 4)"))

OPS = [Op(
    name="constant_pad_nd",
    targets=["aten.constant_pad_nd.default"],
    args=[Tensor("self", FLOATS, rank=(1, 4)), IntList("pad"), Scalar("value"),
          Output("out", FLOATS, rank=(1, 4))],
    let={
        "pairs": "len(pad) // 2",
        "in4": "right_align(self.dims, 4, 1)",
        # (left, right) per right-aligned slot; pairs start at the last dim
        "left4": "[pad[6] if pairs > 3 else 0, pad[4] if pairs > 2 else 0, "
                 "pad[2] if pairs > 1 else 0, pad[0] if pairs > 0 else 0]",
        "right4": "[pad[7] if pairs > 3 else 0, pad[5] if pairs > 2 else 0, "
                  "pad[3] if pairs > 1 else 0, pad[1] if pairs > 0 else 0]",
        "out4": "[in4[0] + left4[0] + right4[0], in4[1] + left4[1] + right4[1], "
                "in4[2] + left4[2] + right4[2], in4[3] + left4[3] + right4[3]]",
    },
    guards=[
        Guard("len(pad) % 2 == 0", "pad", "must hold (left, right) pairs", got="len(pad)",
              expected="an even number of values"),
        Guard("len(pad) <= 2 * self.rank", "pad", "pads more dims than the input has",
              got="len(pad)", expected="at most {2 * self.rank} values"),
        Guard("len(pad) == 0 or min(pad) >= 0", "pad", "holds a negative pad (cropping)",
              got="pad", expected="non-negative values"),
    ],
    shapes={"out": "out4[4 - self.rank:]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "out_dims": Param("vec4<u32>", "out4"),
            "in_dims": Param("vec4<u32>", "in4"),
            "left": Param("vec4<u32>", "left4"),
            "value": f32("value"),
            "num_elements": u32("out.numel"),
        },
        bindings=[Bind("input", "self", view="scalar"),
                  Bind("output", "out", write=True, view="vec4")],
        routes=[*half_routes([ROUTE], "self"), ROUTE],
    )],
    cases=[
        Case("davit_window_pad", (randn(1, 8, 7, 7), [0, 1, 0, 1]), route="constant_pad_nd",
             exact=True),
        Case("rank1_both_sides", (randn(10), [3, 2], 1.5), exact=True),
        Case("rank3_three_dims", (randn(2, 3, 4), [1, 0, 0, 2, 1, 1], -2.0), exact=True),
        Case("int_value", (randn(2, 5), [1, 1], 7), exact=True),
        Case("no_pad", (randn(3, 4), []), exact=True),
        Case("resize", (randn(2, 4, 6), [1, 2]), resize={"self": (1, 3, 5)}, exact=True),
        # float16: the pad value rounded to half (-1e-6 to a subnormal), values unrounded
        Case("f16_window_pad", (randn(1, 8, 7, 7, dtype="float16"), [0, 1, 0, 1]),
             route="constant_pad_nd_f16", exact=True),
        Case("f16_subnormal_value", (randn(2, 3, dtype="float16"), [1, 2], -1e-6), exact=True),
        Case("odd_pad", (randn(3, 4), [1, 2, 3]),
             raises="pad must hold (left, right) pairs (got 3, expected an even number of values)"),
        Case("too_many_pads", (randn(4), [1, 1, 1, 1]),
             raises="pad pads more dims than the input has (got 4, expected at most 2 values)"),
        Case("negative_pad", (randn(4, 4), [-1, 1]),
             raises="pad holds a negative pad (cropping) (got [-1, 1], expected non-negative values)"),
    ],
)]
