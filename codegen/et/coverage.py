"""What runs where in a lowered model or a .pte: the operators of its VulkanBackend
delegates (read back from each VK00 graph) and the ones left on ExecuTorch's CPU kernels,
with the spec guard that kept an operator off the delegate, or that the delegate will
trip over at load."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from codegen.et.errors import ExportError, InputError
from codegen.et.guards import Rejection, kernel_call_rejection
from codegen.et.vk_graph import VkGraph, VkGraphError, op_target, read_graph
from codegen.et.vk_guards import vk_rejections
from codegen.paths import REPO_ROOT

OP_TABLE = REPO_ROOT / "generated" / "op_table.json"
BACKEND_ID = "VulkanBackend"
# Operators the backend implements itself (cpp_runtime/executorch/vk_graph.cpp), not
# through a generated handler.
BUILTIN_TARGETS = frozenset({"et_vk.prepack.default"})


def supported_targets(op_table: Path = OP_TABLE) -> frozenset[str]:
    """Every target with a generated handler (from the generated op table) plus the
    backend's built-ins."""
    table = json.loads(op_table.read_text())
    return frozenset(t for op in table["ops"] for t in op["targets"]) | BUILTIN_TARGETS


@dataclass
class Coverage:
    """A model's operators, named as its graphs hold them: delegated (inside VK00 graphs,
    with a handler that accepts the call), guarded (kept off the delegate because their
    spec's guards reject the call: they run on ExecuTorch's CPU kernels; counted per
    operator and guard message), rejected (inside VK00 graphs, but the handler's checks
    or guards reject the values the graph holds, e.g. a call the Vulkan preprocessing
    fused after partitioning: the .pte fails at load with that message), missing (inside
    VK00 graphs without a handler: the .pte fails at load) and portable (left outside the
    delegate for another reason: they would run on ExecuTorch's CPU kernels)."""

    delegated: Counter = field(default_factory=Counter)
    missing: Counter = field(default_factory=Counter)
    portable: Counter = field(default_factory=Counter)
    guarded: Counter = field(default_factory=Counter)  # (operator, guard message) -> calls
    rejected: Counter = field(default_factory=Counter)  # (operator, guard message) -> calls
    load_rejections: list = field(default_factory=list)  # Rejection of each rejected call
    float16: bool = False  # a delegate holds float16 tensors (force_fp16)

    @property
    def fully_delegated(self) -> bool:
        return not self.missing and not self.portable and not self.guarded and not self.rejected

    @property
    def unsupported(self) -> bool:
        """Some operator has no handler, is rejected by its handler at load, or is left
        out for a reason other than a guard."""
        return bool(self.missing or self.portable or self.rejected)

    def add_graph(self, graph: VkGraph, targets: frozenset[str], where: str = "") -> None:
        """Counts the calls of one VK00 graph (`where` follows its node names)."""
        rejected = {r.node: r for _, r in vk_rejections(graph, where)}
        self.float16 |= any(v.kind == "VkTensor" and v.data == "float16" for v in graph.values)
        for i, call in enumerate(graph.chain):
            rejection = rejected.get(f"{i}{where}")
            if op_target(call.name) not in targets:
                self.missing[call.name] += 1
            elif rejection is not None:
                self.rejected[(call.name, rejection.message)] += 1
                self.load_rejections.append(rejection)
            else:
                self.delegated[call.name] += 1

    def rows(self) -> list[tuple[str, int, str]]:
        rows = [(op, n, "delegated") for op, n in sorted(self.delegated.items())]
        rows += [(op, n, f"delegated: no (guard: {message})")
                 for (op, message), n in sorted(self.guarded.items())]
        rows += [(op, n, f"missing: delegated, fails at load (guard: {message})")
                 for (op, message), n in sorted(self.rejected.items())]
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
        missing = sum(self.missing.values()) + sum(self.portable.values()) + sum(
            self.rejected.values())
        summary = f"{sum(self.delegated.values())} delegated op calls, {missing} missing"
        if self.guarded:
            summary += (f", {sum(self.guarded.values())} kept off the delegate by spec guards "
                        f"(run on ExecuTorch CPU kernels)")
        lines.append(summary)
        lines += [f"  fails at load: {r}" for r in self.load_rejections]
        return "\n".join(lines)


def delegate_graph(blob: bytes) -> VkGraph:
    """The VK00 graph of a VH00/VK00 delegate blob (chain and values)."""
    from executorch.backends.vulkan.serialization.vulkan_graph_serialize import extract_vk_flatbuffer

    if blob[4:8] != b"VH00":
        raise ExportError(f"delegate blob does not start with a VH00 header ({blob[4:8]!r})")
    try:
        return read_graph(extract_vk_flatbuffer(blob))
    except VkGraphError as e:
        raise ExportError(f"delegate blob: {e}") from e


def _where(index: int, count: int) -> str:
    """What follows a node's name in delegate `index` of `count`."""
    return f" of delegate {index}" if count > 1 else ""


def program_coverage(program, targets: frozenset[str],
                     rejections: dict[str, Rejection]) -> tuple[Coverage, list[list[str]]]:
    """The coverage of a lowered program, and the chain of each of its VK00 graphs."""
    from executorch.exir.lowered_backend_module import LoweredBackendModule

    coverage = Coverage()
    vk_ops = []
    modules = [m for _, m in program.graph_module.named_modules()
               if isinstance(m, LoweredBackendModule)]
    for k, module in enumerate(modules):
        if module.backend_id != BACKEND_ID:
            raise ExportError(f"unexpected delegate {module.backend_id!r}")
        graph = delegate_graph(module.processed_bytes)
        vk_ops.append([call.name for call in graph.chain])
        coverage.add_graph(graph, targets, _where(k, len(modules)))
    for node in program.graph.nodes:
        if node.op == "call_function" and not _is_delegate_plumbing(node):
            rejection = rejections.get(node.name)
            if rejection is not None:
                coverage.guarded[(rejection.target, rejection.message)] += 1
            else:
                coverage.portable[_target_name(node.target)] += 1
    return coverage, vk_ops


def _is_delegate_plumbing(node) -> bool:
    import operator

    return node.target is operator.getitem or getattr(node.target, "__name__", "") == \
        "executorch_call_delegate"


def _target_name(target) -> str:
    name = getattr(target, "__name__", None) or str(target)
    return name.replace("::", ".")


def read_pte(path: str | Path) -> bytes:
    """The bytes of an ExecuTorch program file; InputError when `path` is not one."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such .pte file" + (" (a directory)" if path.is_dir() else ""))
    data = path.read_bytes()
    if data[4:6] != b"ET":
        raise InputError(f"{path} is not an ExecuTorch program (expected the ET file identifier "
                         f"at byte 4, got {data[4:8]!r})")
    return data


def pte_coverage(path: str | Path, targets: frozenset[str] | None = None) -> Coverage:
    """The coverage of an existing .pte: the ops of its VulkanBackend delegates (each call
    checked against its spec's guards on the values its VK00 graph holds: a rejected one
    fails the load) and the operators its program runs outside them (a CPU kernel whose
    spec rejects its arguments is counted as guarded, with the guard's message)."""
    import struct

    data = read_pte(path)  # before the seconds of importing ExecuTorch
    from executorch.exir._serialize._program import deserialize_pte_binary
    from executorch.exir.schema import DataLocation

    targets = supported_targets() if targets is None else targets
    try:
        program = deserialize_pte_binary(data).program
    except (struct.error, ValueError) as e:  # a truncated or corrupt flatbuffer
        raise InputError(f"{path} cannot be read as an ExecuTorch program ({e})") from None
    coverage = Coverage()
    for plan in program.execution_plan:
        for k, delegate in enumerate(plan.delegates):
            if delegate.id != BACKEND_ID:
                coverage.portable[f"delegate {delegate.id}"] += 1
                continue
            if delegate.processed.location != DataLocation.INLINE:
                raise ExportError("delegate data not restored from its segment")
            blob = program.backend_delegate_data[delegate.processed.index].data
            coverage.add_graph(delegate_graph(bytes(blob)), targets,
                               _where(k, len(plan.delegates)))
        for c, chain in enumerate(plan.chains):
            for i, instr in enumerate(chain.instructions):
                if type(instr.instr_args).__name__ != "KernelCall":
                    continue
                where = f"{plan.name} chain {c} instruction {i}"
                rejection = kernel_call_rejection(plan, instr.instr_args, where)
                if rejection is not None:
                    coverage.guarded[(rejection.target, rejection.message)] += 1
                    continue
                op = plan.operators[instr.instr_args.op_index]
                coverage.portable[f"{op.name.replace('::', '.')}.{op.overload}"] += 1
    return coverage