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
"""

from codegen.language import (F32, I8, I32, Bind, Case, Dispatch, Double, Elementwise, Guard, Int,
                              IntList, Kernel, Op, Output, Route, Str, Tensor, f32, i32, u32)
from codegen.graph.inputs import rand, randint, randn

CONV = Kernel("q8ta_conv2d", workgroup=(64, 1, 1), helpers=("int8.wgsl",))
LISTS = ("kernel_size", "stride", "padding", "dilation")


def conv_lets(depthwise: bool, transposed: bool) -> dict:
    out = ("(I{a} - 1) * s{a} - 2 * p{a} + d{a} * (K{a} - 1) + op{a} + 1" if transposed else
           "(I{a} + 2 * p{a} - d{a} * (K{a} - 1) - 1) // max(s{a}, 1) + 1")
    lets = {
        "B": "x.dims[0]", "IC": "x.dims[1]", "IH": "x.dims[2]", "IW": "x.dims[3]",
        **{f"{p}{a}": f"{name}[{i}] if len({name}) == 2 else 0"
           for p, name in (("K", "kernel_size"), ("s", "stride"), ("p", "padding"),
                           ("d", "dilation"), ("op", "output_padding"))
           if transposed or name != "output_padding" for i, a in enumerate("HW")},
        "g": "max(groups, 1)",
        "OC": "weights.dims[2]" if depthwise else "weights.dims[0]",
        "icpg": "IC // g", "ocpg": "OC // g",
        "K": "KH * KW * icpg",
        "OH": out.format(a="H"), "OW": out.format(a="W"),
        # weights[oc * oc_stride + (tap * icpg + ic) * tap_stride]
        "oc_stride": "1" if depthwise else "weights.dims[1]",
        "tap_stride": "OC" if depthwise else "1",
        "scale_period": "ocpg" if transposed else "OC",
    }
    return lets


def conv_guards(depthwise: bool, transposed: bool) -> list[Guard]:
    lists = LISTS + (("output_padding",) if transposed else ())
    guards = [Guard(f"len({name}) == 2", name, "does not hold two values", got=name,
                    expected="[H, W] values") for name in lists]
    guards += [
        Guard("min(kernel_size) > 0", "kernel_size", "is not positive", got="kernel_size",
              expected="sizes >= 1"),
        Guard("min(stride) > 0", "stride", "is not positive", got="stride",
              expected="strides >= 1"),
        Guard("min(dilation) > 0", "dilation", "is not positive", got="dilation",
              expected="dilations >= 1"),
        Guard("min(padding) >= 0", "padding", "is negative", got="padding",
              expected="paddings >= 0"),
        Guard("groups > 0 and IC % g == 0 and OC % g == 0", "groups",
              "does not divide the channels", got="groups",
              expected="a divisor of IC={IC} and OC={OC}"),
    ]
    if depthwise:
        guards += [
            Guard("weights.dims[:2] == [KH, KW]", "weights", "does not hold [KH, KW, OC] taps",
                  got="weights.dims", expected="[{KH}, {KW}, OC]"),
            Guard("groups == IC and OC == IC", "groups", "is not depthwise (groups == IC == OC)",
                  got="groups", expected="{IC} with {IC} output channels"),
        ]
    else:
        guards.append(Guard("weights.dims[1] >= K", "weights",
                            "does not hold KH * KW * IC / groups values per output channel",
                            got="weights.dims", expected="rows of at least {K}"))
    if transposed:
        guards.append(Guard("min(output_padding) >= 0 and opH < max(sH, dH) and "
                            "opW < max(sW, dW)", "output_padding",
                            "is not smaller than stride or dilation", got="output_padding",
                            expected="values below {stride} or {dilation}"))
    guards += [
        Guard("weight_scales.numel >= scale_period", "weight_scales",
              "holds fewer than one scale per output channel", got="weight_scales.numel",
              expected="at least {scale_period}"),
        Guard("not bias.present or bias.numel >= OC", "bias",
              "holds fewer than one value per output channel", got="bias.numel",
              expected="at least {OC}"),
        Guard("input_scale > 0.0", "input_scale", "is not positive", got="input_scale",
              expected="a scale > 0"),
        Guard("output_scale > 0.0", "output_scale", "is not positive", got="output_scale",
              expected="a scale > 0"),
        Guard("OH > 0 and OW > 0", "x", "is smaller than the kernel", got="x.dims",
              expected="an output of at least 1x1"),
    ]
    return guards


PARAMS = {
    **{name: u32(name) for name in ("IC", "IH", "IW", "OC", "OH", "OW", "KH", "KW", "sH", "sW",
                                    "pH", "pW", "dH", "dW", "icpg", "ocpg", "oc_stride",
                                    "tap_stride", "scale_period")},
    "num_elements": u32("out.numel"), "num_words": u32("ceil_div(out.numel, 4)"),
    "input_scale": f32("input_scale"), "input_zero_point": i32("input_zero_point"),
    "output_inv_scale": f32("1.0 / output_scale"),
    "output_zero_point": i32("output_zero_point"),
    "has_bias": u32("bias.present"), "relu": u32("activation == 'relu'"),
}


def conv_op(name: str, cases: list[Case], depthwise=False, transposed=False) -> Op:
    lists = [IntList("kernel_size"), IntList("stride"), IntList("padding"),
             *([IntList("output_padding")] if transposed else []), IntList("dilation")]
    return Op(
        name=name,
        targets=[f"et_vk.{name}.default"],
        args=[Tensor("x", (I8,), rank=4), Double("input_scale"), Int("input_zero_point"),
              Tensor("weights", (I8,), rank=3 if depthwise else 2),
              Tensor("weight_sums", (I32,), rank=1), Tensor("weight_scales", (F32,), rank=1),
              Double("output_scale"), Int("output_zero_point"),
              Tensor("bias", (F32,), rank=1, optional=True), *lists, Int("groups"),
              Str("activation", values=("none", "relu")), Output("out", (I8,), rank=4)],
        let=conv_lets(depthwise, transposed),
        guards=conv_guards(depthwise, transposed),
        shapes={"out": "[B, OC, OH, OW]"},
        resize="static",
        golden=f"opgen_golden.{name.replace('_pw', '')}.default",
        flops="2 * out.numel * K",
        dispatches=[Dispatch(
            params={**PARAMS, "transposed": u32("1" if transposed else "0")},
            bindings=[Bind("x", "x", elem="u32"), Bind("weights", "weights", elem="u32"),
                      Bind("weight_scales", "weight_scales"), Bind("bias", "bias"),
                      Bind("output", "out", write=True, elem="u32")],
            routes=[Route(CONV, Elementwise("ceil_div(out.numel, 4)"))])],
        cases=cases,
    )


def conv_args(x_shape, oc, kernel=(3, 3), stride=(1, 1), padding=(0, 0), dilation=(1, 1),
              groups=1, activation="none", bias=True, zp_in=-3, zp_out=4, in_scale=0.02,
              out_scale=0.05, w_scale=0.005, depthwise=False, transposed=False,
              output_padding=(0, 0)) -> tuple:
    """Inputs as the partitioner packs them (the padding of the weight rows random: the
    op must not read it)."""
    kh, kw = kernel
    icpg = x_shape[1] // groups
    k = kh * kw * icpg
    oc4 = oc + (-oc % 4)
    weights = (randint(-127, 128, kh, kw, oc, dtype="int8") if depthwise else
               randint(-127, 128, oc, k + (-k % 4), dtype="int8"))
    scales = oc // groups if transposed else oc
    lists = [list(kernel), list(stride), list(padding)]
    lists += [list(output_padding)] if transposed else []
    return (randint(-128, 128, *x_shape, dtype="int8"), in_scale, zp_in, weights,
            randint(0, 1, oc4, dtype="int32"),
            rand(scales + (-scales % 4), low=0.5 * w_scale, high=1.5 * w_scale), out_scale,
            zp_out, randn(oc4) if bias else None, *lists, list(dilation), groups, activation)


def with_arg(args: tuple, transposed=False, **changes) -> tuple:
    """conv_args with arguments replaced by name."""
    names = ["x", "input_scale", "input_zero_point", "weights", "weight_sums", "weight_scales",
             "output_scale", "output_zero_point", "bias", "kernel_size", "stride", "padding",
             *(["output_padding"] if transposed else []), "dilation", "groups", "activation"]
    out = list(args)
    for name, value in changes.items():
        out[names.index(name)] = value
    return tuple(out)


def common_negatives(ok: tuple, oc: int, transposed=False) -> list[Case]:
    def bad(**changes):
        return with_arg(ok, transposed, **changes)
    return [
        Case("rejects_kernel_size_length", bad(kernel_size=[3]),
             raises="kernel_size does not hold two values (got [3], expected [H, W] values)"),
        Case("rejects_stride_length", bad(stride=[1, 1, 1]),
             raises="stride does not hold two values (got [1, 1, 1], expected [H, W] values)"),
        Case("rejects_padding_length", bad(padding=[]),
             raises="padding does not hold two values (got [], expected [H, W] values)"),
        Case("rejects_dilation_length", bad(dilation=[2]),
             raises="dilation does not hold two values (got [2], expected [H, W] values)"),
        Case("rejects_zero_stride", bad(stride=[1, 0]),
             raises="stride is not positive (got [1, 0], expected strides >= 1)"),
        Case("rejects_zero_dilation", bad(dilation=[0, 1]),
             raises="dilation is not positive (got [0, 1], expected dilations >= 1)"),
        Case("rejects_negative_padding", bad(padding=[-1, 0]),
             raises="padding is negative (got [-1, 0], expected paddings >= 0)"),
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
        Case("rejects_float_input", bad(x=randn(1, 4, 6, 6)),
             raises="x has an unsupported dtype (got float32, expected int8)"),
    ]


STEM = conv_args((1, 3, 11, 13), 8, stride=(2, 2), padding=(1, 1), activation="relu")
PW = conv_args((1, 12, 5, 7), 7, kernel=(1, 1))
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
        *common_negatives(STEM, 8),
        Case("rejects_groups", conv_args((1, 6, 6, 6), 8, groups=4),
             raises="groups does not divide the channels (got 4, expected a divisor of IC=6 "
                    "and OC=8)"),
        Case("rejects_short_rows", with_arg(STEM, weights=randint(-127, 128, 8, 26,
                                                                  dtype="int8")),
             raises="weights does not hold KH * KW * IC / groups values per output channel "
                    "(got [8, 26], expected rows of at least 27)"),
        Case("rejects_small_input", conv_args((1, 3, 2, 5), 4),
             raises="x is smaller than the kernel (got [1, 3, 2, 5], expected an output of "
                    "at least 1x1)"),
    ]),
    conv_op("q8ta_conv2d_pw", [
        Case("pointwise", PW, route="q8ta_conv2d", steps=1),
        Case("pointwise_batch_relu", conv_args((2, 16, 3, 5), 12, kernel=(1, 1), zp_in=-128,
                                               activation="relu"), steps=1),
        *common_negatives(PW, 7)[:8],
    ]),
    conv_op("q8ta_conv2d_dw", [
        Case("depthwise_relu", DW, route="q8ta_conv2d", steps=1),
        Case("depthwise_strided", conv_args((2, 4, 11, 10), 4, kernel=(5, 3), stride=(2, 2),
                                            padding=(2, 1), dilation=(1, 2), groups=4,
                                            depthwise=True, bias=False), steps=1),
        *common_negatives(DW, 8)[:6],
        Case("rejects_not_depthwise", conv_args((1, 8, 6, 6), 8, groups=4, depthwise=True),
             raises="groups is not depthwise (groups == IC == OC) (got 4, expected 8 with 8 "
                    "output channels)"),
        Case("rejects_taps", with_arg(DW, kernel_size=[3, 5]),
             raises="weights does not hold [KH, KW, OC] taps (got [3, 3, 8], expected [3, 5, "
                    "OC])"),
    ], depthwise=True),
    conv_op("q8ta_conv2d_transposed", [
        Case("transposed_4x4_s2", TR, route="q8ta_conv2d", steps=1),
        Case("transposed_grouped_output_padding",
             conv_args((2, 6, 4, 5), 8, kernel=(3, 3), stride=(2, 3), padding=(1, 0),
                       groups=2, transposed=True, output_padding=(1, 2), activation="relu"),
             steps=1),
        Case("transposed_1x1_s2", conv_args((1, 5, 3, 4), 4, kernel=(1, 1), stride=(2, 2),
                                            transposed=True, output_padding=(1, 1)), steps=1),
        *common_negatives(TR, 6, transposed=True)[:8],
        Case("rejects_output_padding", with_arg(TR, True, output_padding=[2, 0]),
             raises="output_padding is not smaller than stride or dilation (got [2, 0], "
                    "expected values below [2, 2] or [1, 1])"),
        Case("rejects_output_padding_length", with_arg(TR, True, output_padding=[1]),
             raises="output_padding does not hold two values (got [1], expected [H, W] "
                    "values)"),
    ], transposed=True),
]
