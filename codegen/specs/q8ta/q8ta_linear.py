"""et_vk.q8ta_linear and q8ta_linear_gemv: a linear layer on static int8 activations and
int8 per-channel symmetric weights, the fusion ExecuTorch's Vulkan partitioner makes of
dequantize -> linear -> [relu] -> quantize in a PT2E-quantized graph (the gemv target
when the input has one row).

Arguments as the partitioner serializes them: x int8 [..., K], input_scale,
input_zero_point, weights int8 [N, K], weight_sums int32 (each channel's weight sum,
derived data: not read), weight_scales float32 [N rounded up to 4], output_scale,
output_zero_point, bias float32 [N rounded up to 4] or None, activation "none" | "relu".
out[m, n] = quantize((sum_k (x[m, k] - zp_in) * w[n, k]) * input_scale * scale[n]
+ bias[n]): the sum is exact in int32, the rest float32 (docs/numerics.md).

q8ta_linear: one invocation per output word (4 outputs). q8ta_linear_gemv: one
workgroup per output word, its invocations striding over K and reducing in workgroup
memory (the decode shape: few outputs, long rows).
"""

from codegen.language import (F32, I8, I32, Bind, Case, Dispatch, Double, Elementwise, Guard, Int,
                              Kernel, Op, Output, Route, Rows, Str, Tensor, f32, i32, u32)
from codegen.graph.inputs import rand, randint, randn, tensor

LINEAR = Kernel("q8ta_linear", workgroup=(64, 1, 1),
                helpers=("../common/each_word.wgsl", "int8.wgsl"))
GEMV = Kernel("q8ta_linear_gemv", workgroup=(64, 1, 1), helpers=("int8.wgsl",))

LINEAR_ARGS = [
    Tensor("x", (I8,), rank=(1, 4)), Double("input_scale"), Int("input_zero_point"),
    Tensor("weights", (I8,), rank=2), Tensor("weight_sums", (I32,), rank=1),
    Tensor("weight_scales", (F32,), rank=1), Double("output_scale"),
    Int("output_zero_point"), Tensor("bias", (F32,), rank=1, optional=True),
    Str("activation", values=("none", "relu"), default="none"),
]
LETS = {"K": "x.dims[-1]", "N": "weights.dims[0]", "M": "x.numel // max(x.dims[-1], 1)"}
GUARDS = [
    Guard("K % 4 == 0 and K > 0", "x", "has in_features that are not a positive multiple of 4 "
          "(the Vulkan partitioner fuses only those)", got="K", expected="a multiple of 4"),
    Guard("weights.dims[1] == K", "weights", "does not match the input features",
          got="weights.dims", expected="[N, {K}]"),
    Guard("weight_scales.numel >= N", "weight_scales", "holds fewer than one scale per output "
          "channel", got="weight_scales.numel", expected="at least {N}"),
    Guard("not bias.present or bias.numel >= N", "bias", "holds fewer than one value per "
          "output channel", got="bias.numel", expected="at least {N}"),
    Guard("input_scale > 0.0", "input_scale", "is not positive", got="input_scale",
          expected="a scale > 0"),
    Guard("output_scale > 0.0", "output_scale", "is not positive", got="output_scale",
          expected="a scale > 0"),
]
PARAMS = {
    "M": u32("M"), "N": u32("N"), "K_words": u32("K // 4"),
    "num_elements": u32("out.numel"), "num_words": u32("ceil_div(out.numel, 4)"),
    "input_scale": f32("input_scale"), "input_zero_point": i32("input_zero_point"),
    "output_inv_scale": f32("1.0 / output_scale"),
    "output_zero_point": i32("output_zero_point"),
    "has_bias": u32("bias.present"), "relu": u32("activation == 'relu'"),
}
BINDINGS = [Bind("x", "x", elem="u32"), Bind("weights", "weights", elem="u32"),
            Bind("weight_scales", "weight_scales"), Bind("bias", "bias"),
            Bind("output", "out", write=True, elem="u32")]


def linear_args(m_shape: tuple, k: int, n: int, zp_in=3, zp_out=-5, bias=True,
                activation="none", in_scale=0.02, out_scale=0.05, w_scale=0.005,
                n_padded: int = -1) -> tuple:
    """Inputs as the partitioner writes them: scales, sums and bias padded to a multiple
    of 4 channels (the sums are zero here: the op does not read them)."""
    n4 = n + (-n % 4) if n_padded < 0 else n_padded
    return (randint(-128, 128, *m_shape, k, dtype="int8"), in_scale, zp_in,
            randint(-127, 128, n, k, dtype="int8"), randint(0, 1, n4, dtype="int32"),
            rand(n4, low=0.5 * w_scale, high=1.5 * w_scale), out_scale, zp_out,
            randn(n4) if bias else None, activation)


def replaced(args: tuple, **changes) -> tuple:
    """linear_args with some arguments replaced by name."""
    names = [a.name for a in LINEAR_ARGS]
    out = list(args)
    for name, value in changes.items():
        out[names.index(name)] = value
    return tuple(out)


def negative_cases() -> list[Case]:
    ok = linear_args((2,), 8, 6)
    return [
        Case("rejects_k_not_multiple_of_4", linear_args((2,), 6, 5),
             raises="x has in_features that are not a positive multiple of 4 (the Vulkan "
                    "partitioner fuses only those) (got 6, expected a multiple of 4)"),
        Case("rejects_weight_shape", replaced(ok, weights=randint(-127, 128, 6, 12,
                                                                  dtype="int8")),
             raises="weights does not match the input features (got [6, 12], expected [N, 8])"),
        Case("rejects_short_scales", replaced(ok, weight_scales=rand(4, low=0.01, high=0.02)),
             raises="weight_scales holds fewer than one scale per output channel (got 4, "
                    "expected at least 6)"),
        Case("rejects_short_bias", replaced(ok, bias=randn(5)),
             raises="bias holds fewer than one value per output channel (got 5, expected at "
                    "least 6)"),
        Case("rejects_input_scale", replaced(ok, input_scale=0.0),
             raises="input_scale is not positive (got 0.0, expected a scale > 0)"),
        Case("rejects_output_scale", replaced(ok, output_scale=-0.5),
             raises="output_scale is not positive (got -0.5, expected a scale > 0)"),
        Case("rejects_activation", replaced(ok, activation="gelu"),
             raises="activation is not supported (got gelu, expected none or relu)"),
        Case("rejects_float_input", replaced(ok, x=randn(2, 8)),
             raises="x has an unsupported dtype (got float32, expected int8)"),
    ]


def linear_op(name: str, kernel: Kernel, grid, cases: list[Case]) -> Op:
    return Op(
        name=name,
        targets=[f"et_vk.{name}.default"],
        args=[*LINEAR_ARGS, Output("out", (I8,), rank=(1, 4))],
        let=LETS,
        guards=GUARDS,
        shapes={"out": "x.dims[:-1] + [N]"},
        resize="static",
        golden="opgen_ref.q8ta_linear.default",
        flops="2 * M * N * K",
        dispatches=[Dispatch(params=PARAMS, helpers=["q8ta_linear_epilogue.wgsl"],
                             bindings=BINDINGS, routes=[Route(kernel, grid)])],
        cases=cases,
    )


OPS = [
    linear_op("q8ta_linear", LINEAR, Elementwise("ceil_div(out.numel, 4)"), [
        Case("rows_relu", linear_args((5,), 64, 12, activation="relu"), route="q8ta_linear",
             steps=1),
        Case("prime_channels_no_bias", linear_args((3,), 32, 13, bias=False, zp_in=-128),
             steps=1),
        Case("rank3", linear_args((2, 3), 20, 7, zp_out=127), steps=1),
        Case("unpadded_scales", linear_args((4,), 16, 6, n_padded=6), steps=1),
        # scales far too large for the output range: every output saturates
        Case("saturates", linear_args((3,), 24, 9, out_scale=0.001), steps=1),
        # the zero points at the ends of int8, with the input at its own extremes
        Case("extreme_zero_points", (tensor([[-128] * 8 + [127] * 8, [127] * 16],
                                            dtype="int8"),) + linear_args(
            (2,), 16, 5, zp_in=127, zp_out=-128)[1:], steps=1),
        *negative_cases(),
    ]),
    linear_op("q8ta_linear_gemv", GEMV, Rows("ceil_div(out.numel, 4)"), [
        Case("decode_row", linear_args((1,), 256, 10, activation="relu"),
             route="q8ta_linear_gemv", steps=1),
        Case("rank3_prime", linear_args((1, 1), 68, 7, zp_in=-9, zp_out=11), steps=1),
        Case("two_rows_no_bias", linear_args((2, 1), 12, 5, bias=False), steps=1),
        Case("channels_multiple_of_4", linear_args((1,), 40, 12, zp_in=0, zp_out=0), steps=1),
        *negative_cases(),
    ]),
]
