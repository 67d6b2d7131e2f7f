"""The q8ta conv ops' spec parts (q8ta_conv2d.py holds the ops and their cases): lets,
guards, Params, the op builder, and the arguments as the partitioner packs them."""


from codegen.language import (F32, I8, I32, Bind, Case, Dispatch, Double, Elementwise, Guard, Int,
                              IntList, Kernel, Op, Output, Route, Str, Tensor, f32, i32, u32)
from codegen.graph.inputs import rand, randint, randn

CONV = Kernel("q8ta_conv2d", workgroup=(64, 1, 1),
              helpers=("../common/each_word.wgsl", "int8.wgsl"))
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
        # the reduction length of a non-depthwise conv (its weights' guard)
        **({} if depthwise else {"K": "KH * KW * icpg"}),
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
        golden=f"opgen_ref.{name.replace('_pw', '')}.default",
        flops="2 * out.numel * KH * KW * icpg",
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
