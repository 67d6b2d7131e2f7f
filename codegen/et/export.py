"""Export a PyTorch model to an ExecuTorch `.pte` that runs on the WebGPU delegate.

The model is lowered with ExecuTorch's own Vulkan partitioner (backend id
"VulkanBackend": a VK00 flatbuffer behind a VH00 header per delegate), restricted to
the targets `generated/op_table.json` lists plus the backend's built-ins. The
partitioner's operator allowlist covers ATen operators; what its preprocessing
fuses or inserts (et_vk.* custom ops) is checked afterwards by reading every VK00
graph back, so a `.pte` this module writes never holds an operator without a
handler unless the caller asks for one (`allow_unsupported=True`, used to show the
load-time failure). Each node the partitioner would delegate is also checked against
its spec's checks and guards (`codegen.et.guards`): a call the spec rejects stays on
ExecuTorch's CPU kernels, and coverage names the guard (`strict_guards=True` makes it
an ExportError instead).

    from codegen.et.export import export
    result = export(model, (x,), "model.pte")
    print(result.coverage_table())

`opgen export pkg.module:factory -o model.pte` does the same from the command line
(`codegen.et.pte` holds the commands); the factory returns `(model, example_inputs)`.
"""


from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from codegen.et.coverage import (BACKEND_ID, Coverage, program_coverage, pte_coverage,
                                 read_pte, supported_targets)
from codegen.et.errors import ExportError, InputError
from codegen.et.factory import load_factory
from codegen.et.guards import GuardChecker, Rejection, checking_guards, edge_op
from codegen.et.lowering import (CONV_WITH_CLAMP, FUSED_FROM, KEPT_WHOLE, conv_clamp_fusion,
                                 drop_unused_constants, lowering_failed, partitioner,
                                 partitioner_skips, quiet_partitioner_logs, trace_patterns_once)

__all__ = ["BACKEND_ID", "Coverage", "ExportError", "ExportResult", "InputError", "export",
           "load_factory", "lower", "pte_coverage", "read_pte", "supported_targets"]


@dataclass
class ExportResult:
    pte: bytes
    coverage: Coverage
    vk_ops: list[list[str]]  # the chain of each VK00 graph, in order
    rejections: list[Rejection] = field(default_factory=list)  # nodes the spec guards kept out

    def coverage_table(self) -> str:
        return self.coverage.table()


def lower(model, example_inputs: tuple, *, allow_unsupported: bool = False,
          strict_guards: bool = False, targets: frozenset[str] | None = None,
          fp16: bool = False) -> ExportResult:
    """Lower `model` for the WebGPU delegate; raises ExportError naming every operator
    that would not run on it (not delegated, or delegated without a handler) unless
    `allow_unsupported`. `targets` defaults to `supported_targets()`; with
    `allow_unsupported` the partitioner takes every operator Vulkan knows.
    A node whose spec's checks or guards reject the call stays on ExecuTorch's CPU
    kernels (`coverage.guarded`); with `strict_guards` it is an ExportError naming the
    node, the argument and the guard's message. `fp16`: the partitioner's force_fp16
    (the delegates hold float16 tensors, their inputs and outputs stay float32 on the
    host), each node checked as float16."""
    import torch
    from executorch.exir import to_edge_transform_and_lower

    targets = supported_targets() if targets is None else targets
    allowlist = None
    if not allow_unsupported:
        allowed = set(targets) | {src for t in targets for src in FUSED_FROM.get(t, ())}
        allowlist = [op for op in map(edge_op, sorted(allowed)) if op is not None]
    quiet_partitioner_logs()
    trace_patterns_once()
    vulkan = partitioner(allowlist, [t for t in KEPT_WHOLE if t in targets], fp16)
    exported = torch.export.export(eval_mode(model), tuple(example_inputs))
    checker = GuardChecker(fp16)
    with conv_clamp_fusion(CONV_WITH_CLAMP in targets), checking_guards(checker), \
            partitioner_skips() as skips:
        try:
            edge = to_edge_transform_and_lower(exported, partitioner=[vulkan])
        except Exception as e:  # ExecuTorch's own failure: say which nodes split the graph
            raise lowering_failed(e, skips, list(checker.rejections.values())) from e
    rejections = list(checker.rejections.values())
    if strict_guards and rejections:
        raise ExportError(
            f"the spec guards reject {len(rejections)} node(s) the Vulkan partitioner would "
            f"delegate (without strict guards they run on ExecuTorch CPU kernels):\n"
            + "\n".join(f"  {r}" for r in rejections))
    for method in edge.methods:
        drop_unused_constants(edge.exported_program(method))
    program = edge.exported_program()
    coverage, vk_ops = program_coverage(program, targets, checker.rejections)
    if not allow_unsupported and coverage.unsupported:
        raise ExportError("the model does not run fully on the WebGPU delegate:\n"
                          + coverage.table())
    return ExportResult(pte=edge.to_executorch().buffer, coverage=coverage, vk_ops=vk_ops,
                        rejections=rejections)


def eval_mode(model):
    """`model` in eval mode. A converted PT2E graph (codegen.et.quantize) refuses
    train()/eval() and is already in the mode it was converted for."""
    try:
        return model.eval()
    except NotImplementedError:
        return model


def export(model, example_inputs: tuple, path: str | Path | None = None, **kwargs) -> ExportResult:
    """`lower`, then write the .pte to `path` (when given)."""
    result = lower(model, example_inputs, **kwargs)
    if path is not None:
        Path(path).write_bytes(result.pte)
    return result
