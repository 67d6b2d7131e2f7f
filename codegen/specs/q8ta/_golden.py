"""Goldens of the static int8 ops (torch.ops.opgen_golden.*; codegen/executors/goldens.py).

ExecuTorch's references (backends/vulkan/custom_ops_lib.py) of q8ta_linear(_gemv) index
the per-channel scales with the padded channel count the partitioner writes (N rounded
up to 4) and fail unless N % 4 == 0; q8ta_conv2d_transposed's fails for groups > 1; all of
them compute in float32 on float32 weights. These compute the same function in float64:
dequantize (q - zero_point) * scale, the float op, bias, relu, then quantize as torch
does (round half to even, clamp to int8), reading only the first N (OC) entries of the
padded per-channel tensors. weight_sums is derived data (each output channel's weight
sum) and is not read. tests/test_q8ta.py checks them against ExecuTorch's references
where those work.
"""

import torch
import torch.nn.functional as F

LIB = torch.library.Library("opgen_golden", "FRAGMENT")

COMMON = ("Tensor x, float input_scale, int input_zero_point, Tensor weights, "
          "Tensor weight_sums, Tensor weight_scales, float output_scale, "
          "int output_zero_point, Tensor? bias")
LIB.define(f"q8ta_linear({COMMON}, str activation) -> Tensor")
LIB.define(f"q8ta_conv2d({COMMON}, int[] kernel_size, int[] stride, int[] padding, "
           f"int[] dilation, int groups, str activation) -> Tensor")
LIB.define(f"q8ta_conv2d_dw({COMMON}, int[] kernel_size, int[] stride, int[] padding, "
           f"int[] dilation, int groups, str activation) -> Tensor")
LIB.define(f"q8ta_conv2d_transposed({COMMON}, int[] kernel_size, int[] stride, "
           f"int[] padding, int[] output_padding, int[] dilation, int groups, "
           f"str activation) -> Tensor")


def dequantize(q: torch.Tensor, scale: float, zero_point: int) -> torch.Tensor:
    return (q.to(torch.float64) - zero_point) * scale


def quantize(x: torch.Tensor, scale: float, zero_point: int, activation: str) -> torch.Tensor:
    if activation == "relu":
        x = torch.relu(x)
    return torch.clamp(torch.round(x * (1.0 / scale)) + zero_point, -128, 127).to(torch.int8)


def _bias(bias, n: int):
    return None if bias is None else bias[:n].to(torch.float64)


def q8ta_linear(x, input_scale, input_zero_point, weights, weight_sums, weight_scales,
                output_scale, output_zero_point, bias, activation):
    n = weights.shape[0]
    w = weights.to(torch.float64) * weight_scales[:n, None].to(torch.float64)
    out = F.linear(dequantize(x, input_scale, input_zero_point), w, _bias(bias, n))
    return quantize(out, output_scale, output_zero_point, activation)


def _conv_weight(weights, oc: int, kernel_size, ic_per_group: int) -> torch.Tensor:
    """[OC, >= KH * KW * ICpg] rows in (kh, kw, ic) order as [OC, ICpg, KH, KW]."""
    kh, kw = kernel_size
    k = kh * kw * ic_per_group
    return weights[:, :k].reshape(oc, kh, kw, ic_per_group).permute(0, 3, 1, 2)


def q8ta_conv2d(x, input_scale, input_zero_point, weights, weight_sums, weight_scales,
                output_scale, output_zero_point, bias, kernel_size, stride, padding,
                dilation, groups, activation):
    oc = weights.shape[0]
    w = _conv_weight(weights, oc, kernel_size, x.shape[1] // groups).to(torch.float64)
    w = w * weight_scales[:oc].to(torch.float64).view(oc, 1, 1, 1)
    out = F.conv2d(dequantize(x, input_scale, input_zero_point), w, _bias(bias, oc), stride,
                   padding, dilation, groups)
    return quantize(out, output_scale, output_zero_point, activation)


def q8ta_conv2d_dw(x, input_scale, input_zero_point, weights, weight_sums, weight_scales,
                   output_scale, output_zero_point, bias, kernel_size, stride, padding,
                   dilation, groups, activation):
    kh, kw, oc = weights.shape
    w = weights.permute(2, 0, 1).reshape(oc, 1, kh, kw).to(torch.float64)
    w = w * weight_scales[:oc].to(torch.float64).view(oc, 1, 1, 1)
    out = F.conv2d(dequantize(x, input_scale, input_zero_point), w, _bias(bias, oc), stride,
                   padding, dilation, groups)
    return quantize(out, output_scale, output_zero_point, activation)


def q8ta_conv2d_transposed(x, input_scale, input_zero_point, weights, weight_sums,
                           weight_scales, output_scale, output_zero_point, bias, kernel_size,
                           stride, padding, output_padding, dilation, groups, activation):
    """weights[oc, (kh * KW + kw) * ICpg + icl] is the transposed weight [IC, OC / groups,
    KH, KW] at [g * ICpg + icl, oc % OCpg] (oc = g * OCpg + ocl), quantized per channel
    along its OC / groups axis: scale weight_scales[oc % OCpg]."""
    oc = weights.shape[0]
    icpg, ocpg = x.shape[1] // groups, oc // groups
    w = _conv_weight(weights, oc, kernel_size, icpg).to(torch.float64)  # [OC, ICpg, KH, KW]
    w = w * weight_scales[:ocpg].to(torch.float64).repeat(groups).view(oc, 1, 1, 1)
    kh, kw = kernel_size
    w = w.reshape(groups, ocpg, icpg, kh, kw).transpose(1, 2).reshape(groups * icpg, ocpg, kh, kw)
    out = F.conv_transpose2d(dequantize(x, input_scale, input_zero_point), w, _bias(bias, oc),
                             stride, padding, output_padding, groups, dilation)
    return quantize(out, output_scale, output_zero_point, activation)


for _name, _fn in [("q8ta_linear", q8ta_linear), ("q8ta_conv2d", q8ta_conv2d),
                   ("q8ta_conv2d_dw", q8ta_conv2d_dw),
                   ("q8ta_conv2d_transposed", q8ta_conv2d_transposed)]:
    LIB.impl(_name, _fn, "CompositeExplicitAutograd")
