"""embedding_q4gsw: embedding lookup over 4-bit group-symmetric quantized weights
(ExecuTorch Vulkan custom op; semantics of its reference implementation in
executorch/backends/vulkan/custom_ops_lib.py).

weight: uint8 [V, D/2], two signed 4-bit values per byte stored with +8 offset;
    is_linear_weight=False: element 2j = high nibble, 2j+1 = low nibble
    is_linear_weight=True:  element 2j = low nibble,  2j+1 = high nibble
weight_scales: [V, D / group_size] (one scale per group of a row);
out[..., c] = (nibble - 8) * weight_scales[row, c // group_size] for row = indices[...].
Out-of-range indices are clamped (torch raises; a GPU kernel cannot).
Scales and output are float32 or float16, each on its own: a force_fp16 LLM has both
float16 (golden: opgen_ref's, in the scales' dtype; ExecuTorch's reference always gives
float32). The scales are read as u32 words (a float16 scale is half of one), the output
through a view (the kernel's float16 twins store half rows).
"""

from codegen.language import (F16, F32, I32, U8, Bind, Bool, Case, Dispatch, Elementwise, Guard,
                              Int, Kernel, Op, Output, Route, Tensor, half_routes, u32)
from codegen.graph.inputs import randint, randn

EMBED = Kernel("embedding_q4gsw", helpers=("../common/each_element.wgsl",))
FLOATS = (F32, F16)
ROUTES = [Route(EMBED, Elementwise("out.numel"))]


def _args(V, D, group, index_shape, linear=False, dtype="float32"):
    return (randint(0, 256, V, D // 2, dtype="uint8"), randn(V, D // group, dtype=dtype), group,
            randint(0, V, *index_shape), linear)


OPS = [Op(
    name="embedding_q4gsw",
    targets=["et_vk.embedding_q4gsw.default"],
    args=[Tensor("weight", dtypes=(U8,), rank=2), Tensor("weight_scales", FLOATS, rank=2),
          Int("group_size"), Tensor("indices", dtypes=(I32,), rank=(1, 3)),
          Bool("is_linear_weight"), Output("out", FLOATS, rank=(2, 4))],
    let={"V": "weight.dims[0]", "D": "weight.dims[1] * 2"},
    guards=[
        Guard("group_size > 0 and D % group_size == 0", "group_size",
              "does not divide the embedding dim", got="group_size", expected="a divisor of {D}"),
        Guard("weight_scales.dims == [V, D // group_size]", "weight_scales",
              "does not hold one scale per group of each row", got="weight_scales.dims",
              expected="[{V}, {D // group_size}]"),
    ],
    shapes={"out": "indices.dims + [D]"},
    resize="dynamic",
    golden="opgen_ref.embedding_q4gsw.default",
    dispatches=[Dispatch(
        params={
            "D": u32("D"),
            "V": u32("V"),
            "group_size": u32("group_size"),
            "num_groups": u32("D // group_size"),
            "linear_order": u32("is_linear_weight"),
            "num_elements": u32("out.numel"),
            "scales_half": u32("weight_scales.dtype == 'float16'"),
        },
        bindings=[Bind("weight", "weight", elem="u32"),
                  Bind("scales", "weight_scales", elem="u32"),
                  Bind("indices", "indices"), Bind("output", "out", write=True, view="scalar")],
        routes=[*half_routes(ROUTES, "out"), *ROUTES],
    )],
    cases=[
        Case("qwen_tokens", _args(64, 32, 16, (1, 5)), route="embedding_q4gsw"),
        Case("linear_weight_order", _args(40, 24, 8, (2, 3), linear=True)),
        Case("one_group", _args(16, 8, 8, (7,))),
        Case("odd_row_bytes", _args(10, 6, 2, (4,))),
        Case("resize_decode", _args(32, 16, 8, (1, 6)), resize={"indices": (1, 1)}),
        # float16 (a force_fp16 LLM's token embedding): half scales, half rows
        Case("f16_tokens", _args(64, 32, 16, (1, 5), dtype="float16"),
             route="embedding_q4gsw_f16"),
        # 15 half scales: the last word holds one
        Case("f16_odd_scales", _args(5, 6, 2, (4,), dtype="float16"),
             resize={"indices": (3,)}),
        Case("group_not_divisor", _args(8, 16, 16, (3,))[:2] + (6,) + _args(8, 16, 16, (3,))[3:],
             raises="group_size does not divide the embedding dim (got 6, expected a divisor of 16)"),
        Case("scales_shape", (randint(0, 256, 8, 8, dtype="uint8"), randn(8, 4), 8,
                              randint(0, 8, 3), False),
             raises="weight_scales does not hold one scale per group of each row (got [8, 4], "
                    "expected [8, 2])"),
        Case("float_weight", (randn(8, 8), randn(8, 2), 8, randint(0, 8, 3), False),
             raises="weight has an unsupported dtype (got float32, expected uint8)"),
    ],
)]
