"""et_vk.q8ta_conv2d, q8ta_conv2d_pw, q8ta_conv2d_dw and q8ta_conv2d_transposed: 2-D
convolutions on static int8 activations and int8 per-channel symmetric weights, the
fusions ExecuTorch's Vulkan partitioner makes of dequantize -> conv -> [relu] ->
quantize in a PT2E-quantized graph (_pw for 1x1 stride-1 unpadded convs, _dw for
depthwise ones, _transposed for transposed ones).

Arguments as the partitioner serializes them: x int8 [B, IC, H, W], input_scale,
input_zero_point, weights, weight_sums int32 (derived data: not read), weight_scales
float32, output_scale, output_zero_point, bias float32 or None, kernel_size [KH, KW],
stride, padding, [output_padding,] dilation, groups, activation "none" | "relu".
Weights as its pattern (patterns/quantized_convolution.py) packs them:
- direct and pw: [OC, K'] with K = KH * KW * IC / groups in (kh, kw, ic) order, K' = K
  rounded up to 4 (zero padding);
- dw: [KH, KW, OC];
- transposed: [OC, K'] in the same (kh, kw, ic) order, row oc = g * OCpg + ocl holding the
  transposed weight [IC, OCpg, KH, KW] at [g * ICpg + ic, ocl]; its per-channel scales are
  along OCpg (the axis it was quantized on): oc's scale is weight_scales[oc % OCpg].
weight_scales and bias are padded to a multiple of 4 channels.

out = quantize(sum (x - zp_in) * w exact in int32, * input_scale * scale + bias, relu)
(docs/numerics.md). One kernel serves the four ops: the weight layout is two strides in
Params, the transposed gather a flag. One invocation per output word (4 outputs).
The op builder and the packed arguments are in _conv.py.
"""

from codegen.language import Case
from codegen.graph.inputs import rand, randint, randn
from codegen.specs.q8ta._conv import conv_args, conv_op, with_arg


def int8(*shape):
    return randint(-128, 128, *shape, dtype="int8")


def negatives(ok: tuple, oc: int, kind: str) -> list[Case]:
    """A negative case for every guard of the op `kind` (direct, pw, dw, transposed),
    each from the valid call `ok` (`oc` output channels)."""
    transposed, depthwise = kind == "transposed", kind == "dw"
    x, weights = ok[0], ok[3]

    def bad(**changes):
        return with_arg(ok, transposed, **changes)

    lists = [("kernel_size", [3]), ("stride", [1, 1, 1]), ("padding", []), ("dilation", [2])]
    lists += [("output_padding", [1])] if transposed else []
    cases = [Case(f"rejects_{name}_length", bad(**{name: value}),
                  raises=f"{name} does not hold two values (got {value}, expected [H, W] "
                         f"values)") for name, value in lists]
    cases += [
        Case("rejects_zero_kernel_size", bad(kernel_size=[0, 1]),
             raises="kernel_size is not positive (got [0, 1], expected sizes >= 1)"),
        Case("rejects_zero_stride", bad(stride=[1, 0]),
             raises="stride is not positive (got [1, 0], expected strides >= 1)"),
        Case("rejects_zero_dilation", bad(dilation=[0, 1]),
             raises="dilation is not positive (got [0, 1], expected dilations >= 1)"),
        Case("rejects_negative_padding", bad(padding=[-1, 0]),
             raises="padding is negative (got [-1, 0], expected paddings >= 0)"),
        Case("rejects_groups", bad(groups=3),
             raises=f"groups does not divide the channels (got 3, expected a divisor of "
                    f"IC={x.shape[1]} and OC={oc})"),
        Case("rejects_short_scales", bad(weight_scales=rand(1, low=0.01, high=0.02)),
             raises="weight_scales holds fewer than one scale per output channel (got 1, "),
        Case("rejects_short_bias", bad(bias=randn(oc - 1)),
             raises=f"bias holds fewer than one value per output channel (got {oc - 1}, "
                    f"expected at least {oc})"),
        Case("rejects_input_scale", bad(input_scale=0.0),
             raises="input_scale is not positive (got 0.0, expected a scale > 0)"),
        Case("rejects_output_scale", bad(output_scale=-1.0),
             raises="output_scale is not positive (got -1.0, expected a scale > 0)"),
        Case("rejects_activation", bad(activation="relu6"),
             raises="activation is not supported (got relu6, expected none or relu)"),
        Case("rejects_float_input", bad(x=randn(*x.shape)),
             raises="x has an unsupported dtype (got float32, expected int8)"),
    ]
    if depthwise:
        cases += [
            Case("rejects_not_depthwise", conv_args((1, 8, 6, 6), 8, groups=4,
                                                    depthwise=True),
                 raises="groups is not depthwise (groups == IC == OC) (got 4, expected 8 "
                        "with 8 output channels)"),
            Case("rejects_taps", bad(kernel_size=[3, 5]),
                 raises=f"weights does not hold [KH, KW, OC] taps (got {list(weights.shape)}, "
                        f"expected [3, 5, OC])"),
            Case("rejects_small_input", bad(x=int8(1, 8, 2, 2), padding=[0, 0]),
                 raises="x is smaller than the kernel (got [1, 8, 2, 2], expected an output "
                        "of at least 1x1)"),
        ]
    else:
        kh, kw = ok[9]
        rows = kh * kw * (x.shape[1] // ok[-2]) - 1  # one short of K
        cases.append(Case("rejects_short_rows", bad(weights=randint(-127, 128, oc, rows,
                                                                    dtype="int8")),
                          raises=f"weights does not hold KH * KW * IC / groups values per "
                                 f"output channel (got [{oc}, {rows}], expected rows of at "
                                 f"least "))
        small = {"direct": dict(x=int8(1, 3, 2, 5), padding=[0, 0]),
                 "pw": dict(x=int8(1, 12, 0, 7)),
                 "transposed": dict(x=int8(1, 4, 1, 1), padding=[2, 2])}[kind]
        cases.append(Case("rejects_small_input", bad(**small),
                          raises=f"x is smaller than the kernel (got "
                                 f"{list(small['x'].shape)}, expected an output of at least "
                                 f"1x1)"))
    if transposed:
        cases.append(Case("rejects_output_padding", bad(output_padding=[2, 0]),
                          raises="output_padding is not smaller than stride or dilation (got "
                                 "[2, 0], expected values below [2, 2] or [1, 1])"))
    return cases


STEM = conv_args((1, 3, 11, 13), 8, stride=(2, 2), padding=(1, 1), activation="relu")
PW = conv_args((1, 12, 5, 7), 8, kernel=(1, 1))
DW = conv_args((1, 8, 9, 7), 8, padding=(1, 1), groups=8, activation="relu", depthwise=True)
TR = conv_args((1, 4, 5, 6), 6, kernel=(4, 4), stride=(2, 2), padding=(1, 1),
               transposed=True)

OPS = [
    conv_op("q8ta_conv2d", [
        Case("stem_stride2_relu", STEM, route="q8ta_conv2d", steps=1),
        Case("grouped_dilated", conv_args((2, 8, 7, 9), 8, padding=(2, 2), dilation=(2, 2),
                                          groups=2), steps=1),
        Case("rect_prime_channels", conv_args((1, 3, 9, 8), 5, kernel=(3, 5), stride=(1, 2),
                                              padding=(2, 1), bias=False), steps=1),
        Case("extreme_zero_points", conv_args((1, 4, 6, 5), 4, zp_in=127, zp_out=-128,
                                              activation="relu"), steps=1),
        Case("saturates", conv_args((1, 4, 6, 6), 6, out_scale=0.002), steps=1),
        Case("one_input_channel", conv_args((1, 1, 8, 9), 4, padding=(1, 1)), steps=1),
        *negatives(STEM, 8, "direct"),
    ]),
    conv_op("q8ta_conv2d_pw", [
        Case("pointwise", PW, route="q8ta_conv2d", steps=1),
        Case("pointwise_prime_channels", conv_args((1, 12, 5, 7), 7, kernel=(1, 1)), steps=1),
        Case("pointwise_batch_relu", conv_args((2, 16, 3, 5), 12, kernel=(1, 1), zp_in=-128,
                                               activation="relu"), steps=1),
        *negatives(PW, 8, "pw"),
    ]),
    conv_op("q8ta_conv2d_dw", [
        Case("depthwise_relu", DW, route="q8ta_conv2d", steps=1),
        Case("depthwise_strided", conv_args((2, 4, 11, 10), 4, kernel=(5, 3), stride=(2, 2),
                                            padding=(2, 1), dilation=(1, 2), groups=4,
                                            depthwise=True, bias=False), steps=1),
        *negatives(DW, 8, "dw"),
    ], depthwise=True),
    conv_op("q8ta_conv2d_transposed", [
        Case("transposed_4x4_s2", TR, route="q8ta_conv2d", steps=1),
        Case("transposed_grouped_output_padding",
             conv_args((2, 6, 4, 5), 8, kernel=(3, 3), stride=(2, 3), padding=(1, 0),
                       groups=2, transposed=True, output_padding=(1, 2), activation="relu"),
             steps=1),
        Case("transposed_1x1_s2", conv_args((1, 5, 3, 4), 4, kernel=(1, 1), stride=(2, 2),
                                            transposed=True, output_padding=(1, 1)), steps=1),
        *negatives(TR, 6, "transposed"),
    ], transposed=True),
]
