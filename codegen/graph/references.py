"""Reference implementations for the spec cases of custom ops whose own reference does not
compute what an exported graph holds (torch.library namespace `opgen_ref`; a spec names one
as its `golden`, and `import_namespace("opgen_ref")` registers them).

- et_vk.linear_qcs4w: ExecuTorch's reference unpacks the 4-bit weight without the +8 offset
  its packing adds (backends/vulkan/_passes/fuse_quantized_ops.py, pack_4bit_weight_tensor:
  byte = (w[2j] + 8) << 4 | (w[2j + 1] + 8)), which its Vulkan shader takes off again.
- et_vk.linear_q8ta_q8csw: ExecuTorch's reference multiplies the input as floats, but the
  graph passes it the int8 tensor quantize_per_tensor made (backends/vulkan/patterns/
  quantized_linear.py); the op dequantizes it with input_scale and input_zero_point.
"""

from __future__ import annotations

import torch

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
