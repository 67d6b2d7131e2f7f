"""Operators the delegate runs in place of a pattern of the exported graph (torch.library
namespace `webgpu`; `import_namespace("webgpu")` registers them): each is what its spec
computes, so the spec's cases check the kernels against it, and the graph builder
(cpp_runtime/executorch/vk_fusion.cpp) rewrites the pattern into a call of it at load.
The .pte keeps the partitioner's operators, so `opgen coverage` counts those.

- webgpu.silu_mul(gate, up) = silu(gate) * up: a Llama-style MLP's gated product, which
  the Vulkan partitioner emits as sigmoid(gate), mul(gate, that), mul(that, up): three
  dispatches and two intermediate tensors of a decode step, per layer.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

LIBRARY = torch.library.Library("webgpu", "DEF")


def _silu_mul(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    return F.silu(gate) * up


LIBRARY.define("silu_mul(Tensor gate, Tensor up) -> Tensor")
LIBRARY.impl("silu_mul", _silu_mul, "CompositeExplicitAutograd")
