"""quantized_decomposed.quantize_per_tensor / dequantize_per_tensor: the boundaries of a
PT2E static int8 graph (float32 <-> int8), as ExecuTorch's Vulkan partitioner serializes
them: (input, scale, zero_point, quant_min, quant_max, dtype[, out_dtype]); the dtype
arguments travel as Null and are checked where their value is known.

quantize: q = clamp(round(x * inv_scale) + zero_point, quant_min, quant_max) in float32,
halves rounded to even, inv_scale = 1 / scale in double then float32 (torch's reference;
ExecuTorch's CPU kernel computes 1.0f / float(scale), which can differ in the last bit:
docs/numerics.md). +-inf saturate, NaN gives the zero point. dequantize: (q - zero_point)
* scale in float32, bit for bit torch's. Each invocation owns one int8 word (4 elements).
"""

from codegen.language import (F32, I8, Bind, Case, Dispatch, Double, Elementwise, Guard, Ignored,
                              Int, Kernel, Op, Output, Route, ScalarType, Tensor, f32, i32, u32)
from codegen.graph.inputs import randint, randn, tensor, torch_dtype

QUANTIZE = Kernel("quantize_per_tensor", helpers=("../common/each_word.wgsl", "int8.wgsl"))
DEQUANTIZE = Kernel("dequantize_per_tensor", helpers=("../common/each_word.wgsl", "int8.wgsl"))
INT8 = torch_dtype("int8")
NAN, INF = float("nan"), float("inf")

QPARAM_ARGS = [Double("scale"), Int("zero_point"), Int("quant_min"), Int("quant_max"),
               Ignored("dtype", accepts="int8")]
QPARAM_GUARDS = [
    Guard("scale > 0.0", "scale", "is not positive", got="scale", expected="a scale > 0"),
    Guard("quant_min >= -128 and quant_min <= quant_max", "quant_min",
          "is not an int8 value at most quant_max", got="quant_min",
          expected="-128..{quant_max}"),
    Guard("quant_max <= 127", "quant_max", "does not fit int8", got="quant_max",
          expected="at most 127"),
]
QPARAMS = {"scale": f32("scale"), "inv_scale": f32("1.0 / scale"),
           "zero_point": i32("zero_point"), "quant_min": i32("quant_min"),
           "quant_max": i32("quant_max"), "num_elements": u32("input.numel"),
           "num_words": u32("ceil_div(input.numel, 4)")}


def _q(x, scale=0.05, zero_point=0, quant_min=-128, quant_max=127, dtype=INT8) -> tuple:
    return (x, scale, zero_point, quant_min, quant_max, dtype)


# x * 2 lands exactly on halves: round half to even (torch.round), then the zero point
TIES = [0.25, 0.75, 1.25, 1.75, -0.25, -0.75, -1.25, -1.75, 2.25, -2.25, 0.0, -0.0]

QUANTIZE_OP = Op(
    name="quantize_per_tensor",
    targets=["quantized_decomposed.quantize_per_tensor.default"],
    args=[Tensor("input", (F32,), rank=(0, 8)), *QPARAM_ARGS, Output("out", (I8,), rank=(0, 8))],
    guards=QPARAM_GUARDS,
    shapes={"out": "input.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params=QPARAMS,
        helpers=[],
        bindings=[Bind("input", "input", elem="vec4<f32>"),
                  Bind("output", "out", write=True, elem="u32")],
        routes=[Route(QUANTIZE, Elementwise("ceil_div(input.numel, 4)"))],
    )],
    cases=[c if c.raises else Case(**{**c.__dict__, "exact": True}) for c in [
        Case("ties_to_even", _q(tensor(TIES), 0.5), route="quantize_per_tensor"),
        Case("ties_zero_point", _q(tensor(TIES), 0.5, zero_point=-3)),
        Case("saturates", _q(tensor([[1e3, -1e3, INF, -INF, 6.35, 6.4], [-6.4, -6.45, 12.7,
                                                                           -12.8, 3.0, -3.0]]),
                             0.05, zero_point=1)),
        Case("narrow_range", _q(randn(5, 7), 0.01, zero_point=3, quant_min=-100, quant_max=90)),
        Case("odd_shape_zero_point", _q(randn(3, 5, 7), 0.0217, zero_point=-128)),
        Case("prime_nchw", _q(randn(1, 3, 13, 11), 0.031, zero_point=17)),
        # NaN has no int8 value: it gives the zero point (torch's x86 cast gives 0)
        Case("nan_zero_point", _q(tensor([NAN, 1.0, -NAN, 0.5, 0.1]), 0.1)),
        Case("scalar", _q(tensor(0.37), 0.02, zero_point=5)),
        Case("resize", _q(randn(4, 9), 0.04, zero_point=2), resize={"input": (3, 5)}),
        Case("rejects_zero_scale", _q(randn(4), 0.0),
             raises="scale is not positive (got 0.0, expected a scale > 0)"),
        Case("rejects_quant_min", _q(randn(4), quant_min=-129),
             raises="quant_min is not an int8 value at most quant_max (got -129, expected "
                    "-128..127)"),
        Case("rejects_empty_range", _q(randn(4), quant_min=10, quant_max=5),
             raises="quant_min is not an int8 value at most quant_max (got 10, expected "
                    "-128..5)"),
        Case("rejects_quant_max", _q(randn(4), quant_max=128),
             raises="quant_max does not fit int8 (got 128, expected at most 127)"),
        Case("rejects_uint8", _q(randn(4), 0.1, 0, 0, 255, torch_dtype("uint8")),
             raises="dtype is not supported (got uint8, expected int8)"),
        Case("rejects_float16", _q(randn(4, dtype="float16")),
             raises="input has an unsupported dtype (got float16, expected float32)"),
    ]],
)

DEQUANTIZE_OP = Op(
    name="dequantize_per_tensor",
    targets=["quantized_decomposed.dequantize_per_tensor.default"],
    args=[Tensor("input", (I8,), rank=(0, 8)), *QPARAM_ARGS, ScalarType("out_dtype"),
          Output("out", (F32,), rank=(0, 8))],
    guards=QPARAM_GUARDS,
    shapes={"out": "input.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params=QPARAMS,
        bindings=[Bind("input", "input", elem="u32"),
                  Bind("output", "out", write=True, elem="vec4<f32>")],
        routes=[Route(DEQUANTIZE, Elementwise("ceil_div(input.numel, 4)"))],
    )],
    cases=[c if c.raises else Case(**{**c.__dict__, "exact": True}) for c in [
        Case("full_range", _q(tensor(list(range(-128, 128)), dtype="int8"), 0.0123, -7),
             route="dequantize_per_tensor"),
        Case("odd_shape", _q(randint(-128, 128, 3, 5, 7, dtype="int8"), 0.0217, -128)),
        Case("prime_nchw", _q(randint(-128, 128, 1, 3, 13, 11, dtype="int8"), 0.031, 17)),
        Case("out_dtype_float32", _q(randint(-128, 128, 6, dtype="int8"), 0.5, 3),
             kwargs={"out_dtype": torch_dtype("float32")}),
        Case("scalar", _q(tensor(-77, dtype="int8"), 0.02, 5)),
        Case("resize", _q(randint(-128, 128, 4, 9, dtype="int8"), 0.04, 2),
             resize={"input": (2, 7)}),
        Case("rejects_zero_scale", _q(randint(-128, 128, 4, dtype="int8"), -1.0),
             raises="scale is not positive (got -1.0, expected a scale > 0)"),
        Case("rejects_quant_min", _q(randint(-128, 128, 4, dtype="int8"), quant_min=-200),
             raises="quant_min is not an int8 value at most quant_max (got -200, expected "
                    "-128..127)"),
        Case("rejects_quant_max", _q(randint(-128, 128, 4, dtype="int8"), quant_max=300),
             raises="quant_max does not fit int8 (got 300, expected at most 127)"),
        Case("rejects_float16_out", _q(randint(-128, 128, 4, dtype="int8")),
             kwargs={"out_dtype": torch_dtype("float16")},
             raises="out_dtype is not supported (got float16, expected None or float32)"),
        Case("rejects_float_input", _q(randn(4)),
             raises="input has an unsupported dtype (got float32, expected int8)"),
    ]],
)

OPS = [QUANTIZE_OP, DEQUANTIZE_OP]
