"""Operators the delegate runs in place of a pattern of the exported graph (torch.library
namespace `webgpu`; `import_namespace("webgpu")` registers them): each is what its spec
computes, so the spec's cases check the kernels against it, and the graph builder
(cpp_runtime/executorch/vk_fusion.cpp) rewrites the pattern into a call of it at load.
The .pte keeps the partitioner's operators, so `opgen coverage` counts those.

- webgpu.silu_mul(gate, up) = silu(gate) * up: a Llama-style MLP's gated product, which
  the Vulkan partitioner emits as sigmoid(gate), mul(gate, that), mul(that, up): three
  dispatches and two intermediate tensors of a decode step, per layer.
- webgpu.add_rms_norm(x, residual, weight, eps) -> (sum, normed): sum = x + residual
  (the graph reads it again: the next residual add) and normed = rms_norm(sum) * weight
  as et_vk.rms_norm computes it; a decoder layer's residual add and the RMS norm after
  it, two dispatches of one row each in a decode step.
- webgpu.linear_q4gsw_qkv(self, w_q, s_q, w_k, s_k, w_v, s_v, group_size) -> (q, k, v):
  et_vk.linear_q4gsw of one input with three weights, no bias; an attention block's
  projections, three GEMV dispatches of a decode step.
- webgpu.linear_q4gsw_silu_mul(self, w_gate, s_gate, w_up, s_up, group_size):
  silu(self @ gate^T) * (self @ up^T) with et_vk.linear_q4gsw's 4-bit weights, no bias; a
  Llama MLP's gate and up projections and their gated product.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

LIBRARY = torch.library.Library("webgpu", "DEF")


def _silu_mul(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    return F.silu(gate) * up


def _add_rms_norm(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor,
                  eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    total = x + residual
    wide = total.float()  # et_vk.rms_norm's arithmetic: float32, one rounding
    normed = wide * torch.rsqrt(wide.pow(2).mean(-1, keepdim=True) + eps)
    return total, (normed * weight.float()).to(x.dtype)


def _q4_linear(x, weights, scales, group_size):
    """et_vk.linear_q4gsw without bias, as ExecuTorch's reference computes it (float32
    whatever x's dtype), rounded once to x's dtype as the graph stores its output."""
    import executorch.backends.vulkan.custom_ops_lib  # noqa: F401  registers et_vk

    return torch.ops.et_vk.linear_q4gsw(x.float(), weights, scales.float(), group_size,
                                        None).to(x.dtype)


def _linear_q4gsw_qkv(self, w_q, s_q, w_k, s_k, w_v, s_v, group_size):
    return tuple(_q4_linear(self, w, s, group_size) for w, s in ((w_q, s_q), (w_k, s_k),
                                                                 (w_v, s_v)))


def _linear_q4gsw_silu_mul(self, w_gate, s_gate, w_up, s_up, group_size):
    gate = _q4_linear(self, w_gate, s_gate, group_size)
    up = _q4_linear(self, w_up, s_up, group_size)
    return (F.silu(gate.float()) * up.float()).to(self.dtype)


LIBRARY.define("silu_mul(Tensor gate, Tensor up) -> Tensor")
LIBRARY.impl("silu_mul", _silu_mul, "CompositeExplicitAutograd")
LIBRARY.define("add_rms_norm(Tensor x, Tensor residual, Tensor weight, float eps) "
               "-> (Tensor, Tensor)")
LIBRARY.impl("add_rms_norm", _add_rms_norm, "CompositeExplicitAutograd")
LIBRARY.define("linear_q4gsw_qkv(Tensor self, Tensor w_q, Tensor s_q, Tensor w_k, Tensor s_k, "
               "Tensor w_v, Tensor s_v, int group_size) -> (Tensor, Tensor, Tensor)")
LIBRARY.impl("linear_q4gsw_qkv", _linear_q4gsw_qkv, "CompositeExplicitAutograd")
LIBRARY.define("linear_q4gsw_silu_mul(Tensor self, Tensor w_gate, Tensor s_gate, Tensor w_up, "
               "Tensor s_up, int group_size) -> Tensor")
LIBRARY.impl("linear_q4gsw_silu_mul", _linear_q4gsw_silu_mul, "CompositeExplicitAutograd")
