"""Export a PyTorch model to an ExecuTorch `.pte` that runs on the WebGPU delegate.

The model is lowered with ExecuTorch's own Vulkan partitioner (backend id
"VulkanBackend": a VK00 flatbuffer behind a VH00 header per delegate), restricted to
the targets `generated/op_table.json` lists plus the backend's built-ins. The
partitioner's operator allowlist covers ATen operators; what its preprocessing
fuses or inserts (et_vk.* custom ops) is checked afterwards by reading every VK00
graph back, so a `.pte` this module writes never holds an operator without a
handler unless the caller asks for one (`allow_unsupported=True`, used to show the
load-time failure).

    from codegen.et.export import export
    result = export(model, (x,), "model.pte")
    print(result.coverage_table())

`opgen export pkg.module:factory -o model.pte` does the same from the command line;
the factory returns `(model, example_inputs)`.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import logging
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from codegen.spec.loader import REPO_ROOT

OP_TABLE = REPO_ROOT / "generated" / "op_table.json"
BACKEND_ID = "VulkanBackend"
# Operators the backend implements itself (cpp_runtime/executorch/vk_graph.cpp), not
# through a generated handler.
BUILTIN_TARGETS = frozenset({"et_vk.prepack.default"})
CONV_WITH_CLAMP = "et_vk.conv_with_clamp.default"


class ExportError(RuntimeError):
    """The model cannot be exported fully onto the WebGPU delegate."""


def supported_targets(op_table: Path = OP_TABLE) -> frozenset[str]:
    """Every target with a generated handler (from the generated op table) plus the
    backend's built-ins."""
    table = json.loads(op_table.read_text())
    return frozenset(t for op in table["ops"] for t in op["targets"]) | BUILTIN_TARGETS


@dataclass
class Coverage:
    """A model's operators: delegated (inside VK00 graphs, with a handler), missing
    (inside VK00 graphs without a handler: the .pte fails at load) and portable
    (left outside the delegate: they would run on ExecuTorch's CPU kernels)."""

    delegated: Counter = field(default_factory=Counter)
    missing: Counter = field(default_factory=Counter)
    portable: Counter = field(default_factory=Counter)

    @property
    def fully_delegated(self) -> bool:
        return not self.missing and not self.portable

    def rows(self) -> list[tuple[str, int, str]]:
        rows = [(op, n, "delegated") for op, n in sorted(self.delegated.items())]
        rows += [(op, n, "missing: no WebGPU handler (write its spec)")
                 for op, n in sorted(self.missing.items())]
        rows += [(op, n, "missing: not delegated (runs on ExecuTorch CPU kernels)")
                 for op, n in sorted(self.portable.items())]
        return rows

    def table(self) -> str:
        rows = self.rows()
        width = max([len("operator")] + [len(r[0]) for r in rows])
        lines = [f"{'operator':<{width}}  count  status", f"{'-' * width}  -----  ------"]
        lines += [f"{op:<{width}}  {n:>5}  {status}" for op, n, status in rows]
        lines.append(f"{sum(self.delegated.values())} delegated op calls, "
                     f"{sum(self.missing.values()) + sum(self.portable.values())} missing")
        return "\n".join(lines)


@dataclass
class ExportResult:
    pte: bytes
    coverage: Coverage
    vk_ops: list[list[str]]  # the chain of each VK00 graph, in order

    def coverage_table(self) -> str:
        return self.coverage.table()


def vk_graph_ops(blob: bytes) -> list[str]:
    """The operator of each chain entry of a VH00/VK00 delegate blob."""
    from executorch.backends.vulkan.serialization.vulkan_graph_serialize import (
        extract_vk_flatbuffer, flatbuffer_to_vk_graph)

    if blob[4:8] != b"VH00":
        raise ExportError(f"delegate blob does not start with a VH00 header ({blob[4:8]!r})")
    return [call.name for call in flatbuffer_to_vk_graph(extract_vk_flatbuffer(blob)).chain]


def _edge_op(target: str):
    """`aten.relu.default` -> exir_ops.edge.aten.relu.default (None when unknown)."""
    from executorch.exir.dialects._ops import ops as exir_ops

    ns, name, overload = target.split(".")
    try:
        return getattr(getattr(getattr(exir_ops.edge, ns), name), overload)
    except (AttributeError, RuntimeError):
        return None


@contextlib.contextmanager
def _conv_clamp_fusion(enabled: bool):
    """The Vulkan preprocessing fuses conv + relu/hardtanh into et_vk.conv_with_clamp;
    without a handler for that target the fusion is switched off for this lowering."""
    if enabled:
        yield
        return
    import executorch.backends.vulkan.vulkan_preprocess as vulkan_preprocess
    from executorch.exir.pass_base import ExportPass, PassResult

    class NoConvClampFusion(ExportPass):
        def call(self, graph_module):
            return PassResult(graph_module, False)

    saved = vulkan_preprocess.FuseClampPass
    vulkan_preprocess.FuseClampPass = NoConvClampFusion
    try:
        yield
    finally:
        vulkan_preprocess.FuseClampPass = saved


def _quiet_partitioner_logs():
    # The Vulkan partitioner sets the root logger to INFO and logs every skipped node.
    logging.getLogger("").setLevel(logging.WARNING)


def lower(model, example_inputs: tuple, *, allow_unsupported: bool = False,
          targets: frozenset[str] | None = None) -> ExportResult:
    """Lower `model` for the WebGPU delegate; raises ExportError naming every operator
    that would not run on it (not delegated, or delegated without a handler) unless
    `allow_unsupported`. `targets` defaults to `supported_targets()`; with
    `allow_unsupported` the partitioner takes every operator Vulkan knows."""
    import torch
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from executorch.exir.lowered_backend_module import LoweredBackendModule

    targets = supported_targets() if targets is None else targets
    allowlist = None
    if not allow_unsupported:
        allowlist = [op for op in map(_edge_op, sorted(targets)) if op is not None]
    _quiet_partitioner_logs()
    partitioner = VulkanPartitioner(operator_allowlist=allowlist)
    model = model.eval()
    exported = torch.export.export(model, tuple(example_inputs))
    with _conv_clamp_fusion(CONV_WITH_CLAMP in targets):
        edge = to_edge_transform_and_lower(exported, partitioner=[partitioner])
    program = edge.exported_program()

    coverage = Coverage()
    vk_ops = []
    for _, module in program.graph_module.named_modules():
        if isinstance(module, LoweredBackendModule):
            if module.backend_id != BACKEND_ID:
                raise ExportError(f"unexpected delegate {module.backend_id!r}")
            ops = vk_graph_ops(module.processed_bytes)
            vk_ops.append(ops)
            for op in ops:
                (coverage.delegated if op in targets else coverage.missing)[op] += 1
    for node in program.graph.nodes:
        if node.op == "call_function" and not _is_delegate_plumbing(node):
            coverage.portable[_target_name(node.target)] += 1
    if not allow_unsupported and not coverage.fully_delegated:
        raise ExportError("the model does not run fully on the WebGPU delegate:\n"
                          + coverage.table())
    return ExportResult(pte=edge.to_executorch().buffer, coverage=coverage, vk_ops=vk_ops)


def _is_delegate_plumbing(node) -> bool:
    import operator

    return node.target is operator.getitem or getattr(node.target, "__name__", "") == \
        "executorch_call_delegate"


def _target_name(target) -> str:
    name = getattr(target, "__name__", None) or str(target)
    return name.replace("::", ".")


def export(model, example_inputs: tuple, path: str | Path | None = None, **kwargs) -> ExportResult:
    """`lower`, then write the .pte to `path` (when given)."""
    result = lower(model, example_inputs, **kwargs)
    if path is not None:
        Path(path).write_bytes(result.pte)
    return result


def pte_coverage(path: str | Path, targets: frozenset[str] | None = None) -> Coverage:
    """The coverage of an existing .pte: the ops of its VulkanBackend delegates and the
    operators its program runs outside them."""
    from executorch.exir._serialize._program import deserialize_pte_binary
    from executorch.exir.schema import DataLocation

    targets = supported_targets() if targets is None else targets
    program = deserialize_pte_binary(Path(path).read_bytes()).program
    coverage = Coverage()
    for plan in program.execution_plan:
        for delegate in plan.delegates:
            if delegate.id != BACKEND_ID:
                coverage.portable[f"delegate {delegate.id}"] += 1
                continue
            if delegate.processed.location != DataLocation.INLINE:
                raise ExportError("delegate data not restored from its segment")
            blob = program.backend_delegate_data[delegate.processed.index].data
            for op in vk_graph_ops(bytes(blob)):
                (coverage.delegated if op in targets else coverage.missing)[op] += 1
        calls = Counter()
        for chain in plan.chains:
            for instr in chain.instructions:
                if type(instr.instr_args).__name__ == "KernelCall":
                    calls[instr.instr_args.op_index] += 1
        for index, n in calls.items():
            op = plan.operators[index]
            coverage.portable[f"{op.name.replace('::', '.')}.{op.overload}"] += n
    return coverage


def load_factory(spec: str) -> tuple[Any, tuple]:
    """`pkg.module:factory` (or `path/to/file.py:factory`) -> factory()."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not attr:
        raise ExportError(f"expected <python module>:<factory>, got {spec!r}")
    if module_name.endswith(".py"):
        path = Path(module_name).resolve()
        spec_obj = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec_obj)
        sys.modules[path.stem] = module
        spec_obj.loader.exec_module(module)
    else:
        if str(Path.cwd()) not in sys.path:
            sys.path.insert(0, str(Path.cwd()))
        module = importlib.import_module(module_name)
    factory: Callable = getattr(module, attr)
    model, inputs = factory()
    return model, tuple(inputs)


# --- command line (opgen export / opgen coverage) -------------------------------------------
def add_parsers(sub) -> None:
    e = sub.add_parser("export", help="lower a model onto the WebGPU delegate and write a .pte")
    e.add_argument("factory", help="<python module or file.py>:<factory> returning (model, inputs)")
    e.add_argument("-o", "--output", required=True, help="the .pte to write")
    e.add_argument("--allow-unsupported", action="store_true",
                   help="delegate every operator Vulkan knows, even those without a WebGPU handler")
    c = sub.add_parser("coverage", help="which operators of a model run on the WebGPU delegate")
    c.add_argument("model", help="<module>:<factory> or a .pte file")


def cmd_export(args) -> int:
    model, inputs = load_factory(args.factory)
    try:
        result = export(model, inputs, args.output, allow_unsupported=args.allow_unsupported)
    except ExportError as e:
        print(f"opgen export: {e}", file=sys.stderr)
        return 1
    print(result.coverage_table())
    print(f"wrote {args.output} ({len(result.pte)} bytes)")
    return 0


def cmd_coverage(args) -> int:
    if args.model.endswith(".pte"):
        coverage = pte_coverage(args.model)
    else:
        model, inputs = load_factory(args.model)
        coverage = lower(model, inputs, allow_unsupported=True).coverage
        # Operators Vulkan delegates but the op table lacks, and those it leaves out.
    print(coverage.table())
    return 0 if coverage.fully_delegated else 1
