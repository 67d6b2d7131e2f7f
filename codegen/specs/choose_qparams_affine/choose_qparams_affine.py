"""choose_qparams_affine: torchao's per-block quantization parameters, as ExecuTorch's
8da4w LLM export (`export_llama --vulkan -qmode 8da4w`) computes them for each linear's
input: one block per row (token), block_size [1, ..., 1, K], ASYMMETRIC int8.

For each row: min_neg = min(min(x), 0), max_pos = max(max(x), 0);
    scale = max((max_pos - min_neg) / (quant_max - quant_min), eps)
    zero_point = clamp(quant_min - round(min_neg / scale), quant_min, quant_max)
in float32 (round half to even), as torchao's _choose_qparams_affine. The scales are
float32, the zero points int8 (what linear_dq8ca_q4gsw reads); eps defaults to float32's
smallest normal, the quant range to int8's. target_dtype, scale_dtype and
zero_point_dtype are not in the graph (the serializer writes them as None): they must
be int8 / float32 / int8 where given. Four rows per workgroup (64 threads each), so a
workgroup writes whole words of the int8 zero points.
"""

from codegen.language import (I8, Bind, Bool, Case, Dispatch, Double, Guard, IntList, Kernel,
                              Op, Output, Outputs, Route, Rows, Scalar, ScalarType, Str, Tensor,
                              f32, u32)
from codegen.graph.inputs import full, rand, randn, torch_dtype

FLOAT32_SMALLEST_NORMAL = 1.1754943508222875e-38
QPARAMS = Kernel("choose_qparams_rows")


def _reference(input, mapping_type, block_size, target_dtype, quant_min=None, quant_max=None,
               eps=None, scale_dtype=None, zero_point_dtype=None, keepdim=False):
    """torchao's op, in float32 as the model runs it (the rounding of min / scale then
    matches bit for bit)."""
    import torch
    import torchao.quantization.quant_primitives  # noqa: F401  registers torch.ops.torchao

    return torch.ops.torchao.choose_qparams_affine(
        input.float(), mapping_type, block_size, target_dtype, quant_min, quant_max, eps,
        scale_dtype, zero_point_dtype, keepdim)


def _call(x, block, qmin=-128, qmax=127, keepdim=False, zp_dtype="int8", mapping="ASYMMETRIC"):
    return (x, mapping, block, torch_dtype("int8"), qmin, qmax, None, None,
            torch_dtype(zp_dtype) if zp_dtype else None, keepdim)


OPS = [Op(
    name="choose_qparams_affine",
    targets=["torchao.choose_qparams_affine.default"],
    args=[Tensor("input", rank=(1, 8), optional=True), Str("mapping_type", values=("ASYMMETRIC",)),
          IntList("block_size"), ScalarType("target_dtype"),
          Scalar("quant_min", optional=True, default=-128),
          Scalar("quant_max", optional=True, default=127),
          Double("eps", optional=True, default=FLOAT32_SMALLEST_NORMAL),
          ScalarType("scale_dtype"), ScalarType("zero_point_dtype"), Bool("keepdim"),
          Outputs("out", (Output("scale"), Output("zero_point", dtypes=(I8,))))],
    let={
        "K": "input.dims[-1] if input.present else 0",
        "rows": "input.numel // max(K, 1) if input.present else 0",
        "row_shape": "input.dims[:-1] + ([1] if keepdim else []) if input.present else []",
    },
    guards=[
        Guard("input.present", "input", "is missing", got="'None'", expected="a tensor"),
        Guard("block_size == ones(input.rank - 1) + [K]", "block_size",
              "does not make each row (token) one block", got="block_size",
              expected="{ones(input.rank - 1) + [K]}"),
        Guard("-128 <= quant_min and quant_min < quant_max", "quant_min",
              "does not start an int8 range below quant_max", got="quant_min",
              expected="-128..{quant_max - 1}"),
        Guard("quant_max <= 127", "quant_max", "does not end an int8 range", got="quant_max",
              expected="at most 127"),
    ],
    shapes={"scale": "row_shape", "zero_point": "row_shape"},
    resize="dynamic",
    reference=_reference,
    dispatches=[Dispatch(
        params={"K": u32("K"), "rows": u32("rows"), "quads": u32("ceil_div(rows, 4)"),
                "quant_min": f32("quant_min"), "quant_max": f32("quant_max"),
                "eps": f32("eps")},
        bindings=[Bind("input", "input"), Bind("scale", "scale", write=True),
                  Bind("zero_point", "zero_point", write=True, elem="u32")],
        routes=[Route(QPARAMS, Rows("ceil_div(rows, 4)"))],
    )],
    cases=[
        Case("per_token", _call(randn(1, 7, 64), [1, 1, 64]), route="choose_qparams_rows"),
        # 5 rows: the second workgroup's word holds one row and three unused bytes
        Case("rows_not_quads", _call(randn(5, 40), [1, 40])),
        Case("keepdim", _call(randn(2, 3, 16), [1, 1, 16], keepdim=True)),
        # no negative values: min_neg = 0, so the zero point is quant_min
        Case("positive_rows", _call(rand(3, 16, low=0.5, high=2.0), [1, 16])),
        # all zeros: the scale is eps and the zero point quant_min
        Case("zero_rows", _call(full((2, 8), 0.0), [1, 8])),
        Case("narrow_range", _call(randn(4, 24), [1, 24], qmin=-8, qmax=7)),
        # a decode step after a 6-token prefill
        Case("decode_resize", _call(randn(1, 6, 32), [1, 1, 32]),
             resize={"input": (1, 1, 32)}),
        Case("per_channel_block", _call(randn(2, 6, 4), [1, 6, 1]),
             raises="block_size does not make each row (token) one block (got [1, 6, 1], "
                    "expected [1, 1, 4])"),
        Case("uint8_range", _call(randn(2, 8), [1, 8], qmin=0, qmax=255),
             raises="quant_max does not end an int8 range (got 255.0, expected at most 127)"),
        Case("empty_range", _call(randn(2, 8), [1, 8], qmin=5, qmax=5),
             raises="quant_min does not start an int8 range below quant_max (got 5.0, "
                    "expected -128..4.0)"),
        Case("symmetric", _call(randn(2, 8), [1, 8], mapping="SYMMETRIC"),
             raises="mapping_type is not supported (got SYMMETRIC, expected ASYMMETRIC)"),
        # without zero_point_dtype torchao gives int32 zero points
        Case("int32_zero_points", _call(randn(2, 8), [1, 8], zp_dtype=None),
             raises="zero_point has an unsupported dtype (got int32, expected int8)"),
        Case("no_input", (None,) + _call(randn(2, 8), [1, 8])[1:],
             raises="input is missing (got None, expected a tensor)"),
    ],
)]
