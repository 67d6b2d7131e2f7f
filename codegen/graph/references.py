"""Reference implementations for the spec cases of custom ops whose own reference does not
compute what an exported graph holds (torch.library namespace `opgen_ref`; a spec names one
as its `golden`, and `import_namespace("opgen_ref")` registers them).

- et_vk.linear_qcs4w: ExecuTorch's reference unpacks the 4-bit weight without the +8 offset
  its packing adds (backends/vulkan/_passes/fuse_quantized_ops.py, pack_4bit_weight_tensor:
  byte = (w[2j] + 8) << 4 | (w[2j + 1] + 8)), which its Vulkan shader takes off again.
- et_vk.linear_q8ta_q8csw: ExecuTorch's reference multiplies the input as floats, but the
  graph passes it the int8 tensor quantize_per_tensor made (backends/vulkan/patterns/
  quantized_linear.py); the op dequantizes it with input_scale and input_zero_point.
- et_vk.q8ta_linear(_gemv), q8ta_conv2d(_pw, _dw, _transposed): ExecuTorch's references
  index the per-channel scales with the channel count its partitioner pads to 4 (they fail
  for q8ta_linear with N % 4 != 0 and for grouped transposed convs) and read the packed
  conv weight rows in (ic, kh, kw) order where its pattern (patterns/quantized_
  convolution.py) packs them in (kh, kw, ic) order. These compute the same function in
  float64: dequantize (q - zero_point) * scale, the float op, bias, relu, quantize as torch
  does (round half to even, clamp to int8), reading the first N (OC) entries of the padded
  per-channel tensors; weight_sums (derived data) is not read. tests/test_q8ta.py checks
  them against ExecuTorch's references where those are right, and against the unfused
  graph on the pattern's packing.
- et_vk.linear_q4gsw_backward: ExecuTorch's reference multiplies a float32 dequantized
  weight with the gradient in its own dtype (float64 here fails); this is d_out @ W in
  float64, W unpacked as linear_q4gsw's reference unpacks it (low nibble first, - 8).
- et_vk.embedding_q4gsw: ExecuTorch's reference gives float32 rows whatever the scales'
  dtype, but a force_fp16 graph declares the output float16 with its float16 scales
  (the partitioner makes every float32 tensor float16); this dequantizes in the scales'
  dtype, so the output's dtype is theirs.
- et_vk.grid_priors: ExecuTorch's reference gives float32 whatever the feature map's dtype
  (its values are not read), but a force_fp16 graph declares the output float16 beside a
  float16 feature map; this computes the float32 points as that reference does and
  rounds them to float16 when the feature map is float16.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

LIBRARY = torch.library.Library("opgen_ref", "DEF")


def _linear_qcs4w(x: torch.Tensor, weight: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    n, k = weight.shape[0], x.shape[-1]
    w = weight.to(torch.int32)
    values = torch.stack(((w >> 4) - 8, (w & 15) - 8), dim=-1).reshape(n, -1)[:, :k]
    return x @ (values.to(x.dtype) * scales[:n].to(x.dtype).unsqueeze(1)).T


def _linear_q8ta_q8csw(x: torch.Tensor, input_scale: float, input_zero_point: int,
                       weights: torch.Tensor, weight_sums: torch.Tensor,
                       weight_scales: torch.Tensor, bias: torch.Tensor | None = None
                       ) -> torch.Tensor:
    n = weights.shape[0]
    acc = (x.to(torch.int64) - input_zero_point) @ weights.to(torch.int64).T  # exact
    out = acc.to(weight_scales.dtype) * input_scale * weight_scales[:n]
    return out if bias is None else out + bias[:n]


LIBRARY.define("linear_qcs4w(Tensor self, Tensor weight, Tensor scales) -> Tensor")
LIBRARY.impl("linear_qcs4w", _linear_qcs4w, "CompositeExplicitAutograd")
LIBRARY.define("linear_q8ta_q8csw(Tensor x, float input_scale, int input_zero_point, "
               "Tensor weights, Tensor weight_sums, Tensor weight_scales, Tensor? bias=None) "
               "-> Tensor")
LIBRARY.impl("linear_q8ta_q8csw", _linear_q8ta_q8csw, "CompositeExplicitAutograd")


COMMON = ("Tensor x, float input_scale, int input_zero_point, Tensor weights, "
          "Tensor weight_sums, Tensor weight_scales, float output_scale, "
          "int output_zero_point, Tensor? bias")
LIBRARY.define(f"q8ta_linear({COMMON}, str activation) -> Tensor")
LIBRARY.define(f"q8ta_conv2d({COMMON}, int[] kernel_size, int[] stride, int[] padding, "
           f"int[] dilation, int groups, str activation) -> Tensor")
LIBRARY.define(f"q8ta_conv2d_dw({COMMON}, int[] kernel_size, int[] stride, int[] padding, "
           f"int[] dilation, int groups, str activation) -> Tensor")
LIBRARY.define(f"q8ta_conv2d_transposed({COMMON}, int[] kernel_size, int[] stride, "
           f"int[] padding, int[] output_padding, int[] dilation, int groups, "
           f"str activation) -> Tensor")


def _dequantize(q: torch.Tensor, scale: float, zero_point: int) -> torch.Tensor:
    return (q.to(torch.float64) - zero_point) * scale


def _quantize(x: torch.Tensor, scale: float, zero_point: int, activation: str) -> torch.Tensor:
    if activation == "relu":
        x = torch.relu(x)
    return torch.clamp(torch.round(x * (1.0 / scale)) + zero_point, -128, 127).to(torch.int8)


def _bias(bias, n: int):
    return None if bias is None else bias[:n].to(torch.float64)


def _q8ta_linear(x, input_scale, input_zero_point, weights, weight_sums, weight_scales,
                 output_scale, output_zero_point, bias, activation):
    n = weights.shape[0]
    w = weights.to(torch.float64) * weight_scales[:n, None].to(torch.float64)
    out = F.linear(_dequantize(x, input_scale, input_zero_point), w, _bias(bias, n))
    return _quantize(out, output_scale, output_zero_point, activation)


def _conv_weight(weights, oc: int, kernel_size, ic_per_group: int) -> torch.Tensor:
    """[OC, >= KH * KW * ICpg] rows in (kh, kw, ic) order as [OC, ICpg, KH, KW]."""
    kh, kw = kernel_size
    k = kh * kw * ic_per_group
    return weights[:, :k].reshape(oc, kh, kw, ic_per_group).permute(0, 3, 1, 2)


def _q8ta_conv2d(x, input_scale, input_zero_point, weights, weight_sums, weight_scales,
                 output_scale, output_zero_point, bias, kernel_size, stride, padding,
                 dilation, groups, activation):
    oc = weights.shape[0]
    w = _conv_weight(weights, oc, kernel_size, x.shape[1] // groups).to(torch.float64)
    w = w * weight_scales[:oc].to(torch.float64).view(oc, 1, 1, 1)
    out = F.conv2d(_dequantize(x, input_scale, input_zero_point), w, _bias(bias, oc), stride,
                   padding, dilation, groups)
    return _quantize(out, output_scale, output_zero_point, activation)


def _q8ta_conv2d_dw(x, input_scale, input_zero_point, weights, weight_sums, weight_scales,
                    output_scale, output_zero_point, bias, kernel_size, stride, padding,
                    dilation, groups, activation):
    kh, kw, oc = weights.shape
    w = weights.permute(2, 0, 1).reshape(oc, 1, kh, kw).to(torch.float64)
    w = w * weight_scales[:oc].to(torch.float64).view(oc, 1, 1, 1)
    out = F.conv2d(_dequantize(x, input_scale, input_zero_point), w, _bias(bias, oc), stride,
                   padding, dilation, groups)
    return _quantize(out, output_scale, output_zero_point, activation)


def _q8ta_conv2d_transposed(x, input_scale, input_zero_point, weights, weight_sums,
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
    out = F.conv_transpose2d(_dequantize(x, input_scale, input_zero_point), w, _bias(bias, oc),
                             stride, padding, output_padding, groups, dilation)
    return _quantize(out, output_scale, output_zero_point, activation)


for _name, _fn in [("q8ta_linear", _q8ta_linear), ("q8ta_conv2d", _q8ta_conv2d),
                   ("q8ta_conv2d_dw", _q8ta_conv2d_dw),
                   ("q8ta_conv2d_transposed", _q8ta_conv2d_transposed)]:
    LIBRARY.impl(_name, _fn, "CompositeExplicitAutograd")


def _linear_q4gsw_backward(d_out, weights, weight_scales, group_size):
    b = weights.to(torch.int64)
    n, k = b.shape[0], 2 * b.shape[1]
    w = torch.stack(((b & 15) - 8, (b >> 4) - 8), dim=-1).reshape(n, k).to(torch.float64)
    scales = weight_scales.to(torch.float64).t().repeat_interleave(group_size, dim=1)
    return (d_out.to(torch.float64) @ (w * scales)).to(d_out.dtype)


LIBRARY.define("linear_q4gsw_backward(Tensor d_out, Tensor weights, Tensor weight_scales, "
               "int group_size) -> Tensor")
LIBRARY.impl("linear_q4gsw_backward", _linear_q4gsw_backward, "CompositeExplicitAutograd")


def _embedding_q4gsw(weight, weight_scales, group_size, indices, is_linear_weight=False):
    b = weight.to(torch.int64)
    high, low = (b >> 4) - 8, (b & 15) - 8
    pairs = (low, high) if is_linear_weight else (high, low)
    rows = torch.stack(pairs, dim=-1).reshape(b.shape[0], -1, group_size)
    table = (rows.to(weight_scales.dtype) * weight_scales.unsqueeze(-1)).reshape(b.shape[0], -1)
    return F.embedding(indices, table)


LIBRARY.define("embedding_q4gsw(Tensor weight, Tensor weight_scales, int group_size, "
               "Tensor indices, bool is_linear_weight=False) -> Tensor")
LIBRARY.impl("embedding_q4gsw", _embedding_q4gsw, "CompositeExplicitAutograd")


def _grid_priors(x: torch.Tensor, stride: int, offset: float) -> torch.Tensor:
    height, width = x.shape[-2:]
    xs = (torch.arange(0, width) + offset) * stride  # float32, as ExecuTorch's reference
    ys = (torch.arange(0, height) + offset) * stride
    rows, cols = torch.meshgrid([ys, xs], indexing="ij")
    points = torch.stack((cols.reshape(-1), rows.reshape(-1)), dim=-1)
    return points.to(torch.float16) if x.dtype == torch.float16 else points


LIBRARY.define("grid_priors(Tensor self, int stride, float offset) -> Tensor")
LIBRARY.impl("grid_priors", _grid_priors, "CompositeExplicitAutograd")
