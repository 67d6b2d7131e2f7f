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

import contextlib
import importlib
import importlib.util
import json
import logging
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegen.et.guards import (GuardChecker, Rejection, checking_guards, edge_op,
                               kernel_call_rejection)
from codegen.et.vk_graph import VkGraphError, chain_op_names
from codegen.paths import REPO_ROOT

OP_TABLE = REPO_ROOT / "generated" / "op_table.json"
BACKEND_ID = "VulkanBackend"
# Operators the backend implements itself (cpp_runtime/executorch/vk_graph.cpp), not
# through a generated handler.
BUILTIN_TARGETS = frozenset({"et_vk.prepack.default"})
CONV_WITH_CLAMP = "et_vk.conv_with_clamp.default"


class ExportError(RuntimeError):
    """The model cannot be exported fully onto the WebGPU delegate."""


class InputError(ValueError):
    """A command's input that cannot be used as given: a `module:factory` that names no
    factory, a .pte that is not there or not a program, an output path that cannot be
    written. The message names the argument, what was expected and what was given."""


def supported_targets(op_table: Path = OP_TABLE) -> frozenset[str]:
    """Every target with a generated handler (from the generated op table) plus the
    backend's built-ins."""
    table = json.loads(op_table.read_text())
    return frozenset(t for op in table["ops"] for t in op["targets"]) | BUILTIN_TARGETS


@dataclass
class Coverage:
    """A model's operators: delegated (inside VK00 graphs, with a handler), guarded
    (kept off the delegate because their spec's guards reject the call: they run on
    ExecuTorch's CPU kernels; counted per operator and guard message), missing (inside
    VK00 graphs without a handler: the .pte fails at load) and portable (left outside
    the delegate for another reason: they would run on ExecuTorch's CPU kernels)."""

    delegated: Counter = field(default_factory=Counter)
    missing: Counter = field(default_factory=Counter)
    portable: Counter = field(default_factory=Counter)
    guarded: Counter = field(default_factory=Counter)  # (operator, guard message) -> calls

    @property
    def fully_delegated(self) -> bool:
        return not self.missing and not self.portable and not self.guarded

    @property
    def unsupported(self) -> bool:
        """Some operator has no handler, or is left out for a reason other than a guard."""
        return bool(self.missing or self.portable)

    def rows(self) -> list[tuple[str, int, str]]:
        rows = [(op, n, "delegated") for op, n in sorted(self.delegated.items())]
        rows += [(op, n, f"delegated: no (guard: {message})")
                 for (op, message), n in sorted(self.guarded.items())]
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
        summary = (f"{sum(self.delegated.values())} delegated op calls, "
                   f"{sum(self.missing.values()) + sum(self.portable.values())} missing")
        if self.guarded:
            summary += (f", {sum(self.guarded.values())} kept off the delegate by spec guards "
                        f"(run on ExecuTorch CPU kernels)")
        lines.append(summary)
        return "\n".join(lines)


@dataclass
class ExportResult:
    pte: bytes
    coverage: Coverage
    vk_ops: list[list[str]]  # the chain of each VK00 graph, in order
    rejections: list[Rejection] = field(default_factory=list)  # nodes the spec guards kept out

    def coverage_table(self) -> str:
        return self.coverage.table()


def vk_graph_ops(blob: bytes) -> list[str]:
    """The operator of each chain entry of a VH00/VK00 delegate blob."""
    from executorch.backends.vulkan.serialization.vulkan_graph_serialize import extract_vk_flatbuffer

    if blob[4:8] != b"VH00":
        raise ExportError(f"delegate blob does not start with a VH00 header ({blob[4:8]!r})")
    try:
        return chain_op_names(extract_vk_flatbuffer(blob))
    except VkGraphError as e:
        raise ExportError(f"delegate blob: {e}") from e


# Edge ops the Vulkan lowering turns into an op we serve, so the partitioner must be
# allowed to take them: it fuses conv + hardtanh (ReLU6) into conv_with_clamp, and
# dequantize -> pixel_shuffle -> quantize in a static int8 graph into q8ta_pixel_shuffle.
# (addmm, which it fuses with a permuted weight back into linear, has its own spec; the
# other q8ta fusions start from ops with specs of their own.) One it does not fuse
# reaches the VK00 read-back check as an operator without a handler, so nothing unserved
# is ever delegated silently.
FUSED_FROM = {CONV_WITH_CLAMP: ("aten.hardtanh.default",),
              "et_vk.q8ta_pixel_shuffle.default": ("aten.pixel_shuffle.default",)}
# Ops a spec serves whole that ExecuTorch's decomposition table would break up before the
# partitioner sees them: scaled_dot_product_attention's math path (HF attention) calls
# _safe_softmax, which decomposes into a softmax and five mask ops over the scores.
KEPT_WHOLE = ("aten._safe_softmax.default",)


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


SKIP_PREFIX = "[Vulkan Partitioner] Due to "


@contextlib.contextmanager
def _partitioner_skips():
    """Collects the Vulkan partitioner's "skipping <node>" lines (it logs them at INFO on
    the root logger) without printing them, for the error when lowering fails."""
    root = logging.getLogger("")
    skips: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record):
            message = record.getMessage()
            if message.startswith(SKIP_PREFIX):
                skips.append(message[len(SKIP_PREFIX):])

    handler = Collect(logging.INFO)
    saved_level = root.level
    saved = [(h, h.level) for h in root.handlers]
    for h, level in saved:
        h.setLevel(max(level, logging.WARNING))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield skips
    finally:
        root.removeHandler(handler)
        root.setLevel(saved_level)
        for h, level in saved:
            h.setLevel(level)


def _lowering_failed(e: Exception, skips: list[str], rejections: list) -> ExportError:
    """The error for a lowering ExecuTorch could not finish, naming the nodes left outside
    the delegate: with them the graph is split into several delegate partitions, and
    ExecuTorch's Vulkan preprocessing has failed on such graphs (its FuseBatchNormPass on
    torch.roll's index arithmetic before fmod ran on the delegate, and on BEiT's integer
    sum before sum took integers)."""
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    outside = [f"  {r}" for r in rejections] + [f"  {s}" for s in dict.fromkeys(skips)]
    if not outside:
        return ExportError(f"ExecuTorch's lowering failed ({type(e).__name__}: {first}) with "
                           "every node on the delegate")
    return ExportError(
        f"ExecuTorch's lowering failed ({type(e).__name__}: {first}) with {len(outside)} "
        "node(s) left outside the delegate, which splits the graph into several partitions "
        "(ExecuTorch's Vulkan preprocessing has failed on such graphs); a spec that runs "
        "them on the delegate avoids it:\n" + "\n".join(outside))


def lower(model, example_inputs: tuple, *, allow_unsupported: bool = False,
          strict_guards: bool = False, targets: frozenset[str] | None = None) -> ExportResult:
    """Lower `model` for the WebGPU delegate; raises ExportError naming every operator
    that would not run on it (not delegated, or delegated without a handler) unless
    `allow_unsupported`. `targets` defaults to `supported_targets()`; with
    `allow_unsupported` the partitioner takes every operator Vulkan knows.
    A node whose spec's checks or guards reject the call stays on ExecuTorch's CPU
    kernels (`coverage.guarded`); with `strict_guards` it is an ExportError naming the
    node, the argument and the guard's message."""
    import torch
    from executorch.exir import to_edge_transform_and_lower

    targets = supported_targets() if targets is None else targets
    allowlist = None
    if not allow_unsupported:
        allowed = set(targets) | {src for t in targets for src in FUSED_FROM.get(t, ())}
        allowlist = [op for op in map(edge_op, sorted(allowed)) if op is not None]
    _quiet_partitioner_logs()
    partitioner = _partitioner(allowlist, [t for t in KEPT_WHOLE if t in targets])
    exported = torch.export.export(_eval_mode(model), tuple(example_inputs))
    checker = GuardChecker()
    with _conv_clamp_fusion(CONV_WITH_CLAMP in targets), checking_guards(checker), \
            _partitioner_skips() as skips:
        try:
            edge = to_edge_transform_and_lower(exported, partitioner=[partitioner])
        except Exception as e:  # ExecuTorch's own failure: say which nodes split the graph
            raise _lowering_failed(e, skips, list(checker.rejections.values())) from e
    rejections = list(checker.rejections.values())
    if strict_guards and rejections:
        raise ExportError(
            f"the spec guards reject {len(rejections)} node(s) the Vulkan partitioner would "
            f"delegate (without strict guards they run on ExecuTorch CPU kernels):\n"
            + "\n".join(f"  {r}" for r in rejections))
    for method in edge.methods:
        _drop_unused_constants(edge.exported_program(method))
    program = edge.exported_program()
    coverage, vk_ops = _program_coverage(program, targets, checker.rejections)
    if not allow_unsupported and coverage.unsupported:
        raise ExportError("the model does not run fully on the WebGPU delegate:\n"
                          + coverage.table())
    return ExportResult(pte=edge.to_executorch().buffer, coverage=coverage, vk_ops=vk_ops,
                        rejections=rejections)


def _eval_mode(model):
    """`model` in eval mode. A converted PT2E graph (codegen.et.quantize) refuses
    train()/eval() and is already in the mode it was converted for."""
    try:
        return model.eval()
    except NotImplementedError:
        return model


def _drop_unused_constants(program) -> list[str]:
    """Removes the constant inputs (lifted tensors, buffers, parameters) no node of
    `program` reads any more, in place; returns their names.

    ExecuTorch's edge passes prune empty tensors from `cat` (PruneEmptyTensorsPass) after
    its unused-parameter pass, which only removes parameters, has run; a causal LM's
    empty KV cache (transformers' DynamicLayer starts keys and values as [0] tensors,
    lifted as constants) is left as placeholders nothing reads. The emitter still writes
    them as constant tensors of 0 bytes, and when they are the program's only constants
    outside the delegate the constant segment is 0 bytes long: the runtime's loader
    returns it with a null data pointer, which Program::get_constant_buffer_data reads as
    "no constant segment" and takes the deprecated inline constant_buffer path, disabled
    in the runtime (NotSupported, "ExecuTorch error 35" at load)."""
    from torch.export.graph_signature import InputKind

    signature = program.graph_signature
    mutated = set(signature.buffers_to_mutate.values())
    placeholders = {n.name: n for n in program.graph.nodes if n.op == "placeholder"}
    kinds = (InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR)
    unused = [s for s in signature.input_specs
              if s.kind in kinds and s.target not in mutated
              and s.arg.name in placeholders and not placeholders[s.arg.name].users]
    if not unused:
        return []
    for spec in unused:
        signature.input_specs.remove(spec)
        program.graph.erase_node(placeholders[spec.arg.name])
    still_read = {s.target for s in signature.input_specs}
    for spec in unused:
        if spec.target not in still_read:
            program.state_dict.pop(spec.target, None)
            program.constants.pop(spec.target, None)
    program.graph_module.recompile()
    return [s.arg.name for s in unused]


def _partitioner(allowlist, kept_whole: list[str]):
    """ExecuTorch's Vulkan partitioner, also keeping the `kept_whole` targets (KEPT_WHOLE
    ops this lowering has a handler for) from decomposition."""
    import torch
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner

    def aten_op(target: str):
        ns, name, overload = target.split(".")
        return getattr(getattr(getattr(torch.ops, ns), name), overload)

    class WebGPUPartitioner(VulkanPartitioner):
        def ops_to_not_decompose(self, ep):
            ops, filter_fn = super().ops_to_not_decompose(ep)
            return [*ops, *map(aten_op, kept_whole)], filter_fn

    return WebGPUPartitioner(operator_allowlist=allowlist)


def _program_coverage(program, targets: frozenset[str],
                      rejections: dict[str, Rejection]) -> tuple[Coverage, list[list[str]]]:
    """The coverage of a lowered program, and the chain of each of its VK00 graphs."""
    from executorch.exir.lowered_backend_module import LoweredBackendModule

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


def export(model, example_inputs: tuple, path: str | Path | None = None, **kwargs) -> ExportResult:
    """`lower`, then write the .pte to `path` (when given)."""
    result = lower(model, example_inputs, **kwargs)
    if path is not None:
        Path(path).write_bytes(result.pte)
    return result


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
    """The coverage of an existing .pte: the ops of its VulkanBackend delegates and the
    operators its program runs outside them (a CPU kernel whose spec rejects its
    arguments is counted as guarded, with the guard's message)."""
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
        for delegate in plan.delegates:
            if delegate.id != BACKEND_ID:
                coverage.portable[f"delegate {delegate.id}"] += 1
                continue
            if delegate.processed.location != DataLocation.INLINE:
                raise ExportError("delegate data not restored from its segment")
            blob = program.backend_delegate_data[delegate.processed.index].data
            for op in vk_graph_ops(bytes(blob)):
                (coverage.delegated if op in targets else coverage.missing)[op] += 1
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


def _required_params(f) -> list[str]:
    import inspect

    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):  # no signature to read: assume none is required
        return []
    return [p.name for p in params if p.default is p.empty
            and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _factories(module) -> list[str]:
    """The module's public functions callable without arguments (its factories)."""
    import inspect

    return sorted(name for name, f in vars(module).items()
                  if not name.startswith("_") and inspect.isfunction(f)
                  and f.__module__ == module.__name__ and not _required_params(f))


def _import_factory_module(module_name: str, spec: str):
    if module_name.endswith(".py"):
        path = Path(module_name).resolve()
        if not path.is_file():
            raise InputError(f"{module_name}: no such Python file (in {spec!r})")
        spec_obj = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec_obj)
        sys.modules[path.stem] = module
        spec_obj.loader.exec_module(module)
        return module
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        found = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):  # a parent package is missing, or the name is empty
        found = None
    if found is None:
        raise InputError(f"no Python module named {module_name!r} (in {spec!r}; expected "
                         f"<module or file.py>:<factory>)")
    return importlib.import_module(module_name)


def load_factory(spec: str) -> tuple[Any, tuple]:
    """`pkg.module:factory` (or `path/to/file.py:factory`) -> factory(). InputError
    when `spec` names no factory or the factory returns something else than
    `(model, example_inputs)`; errors raised by the module or the factory itself
    propagate with their traceback (they are the factory's)."""
    import torch

    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise InputError(f"expected <python module or file.py>:<factory>, got {spec!r}")
    module = _import_factory_module(module_name, spec)
    factory = getattr(module, attr, None)
    known = f"(factories: {', '.join(_factories(module)) or 'none'})"
    if factory is None:
        raise InputError(f"{module_name} has no factory {attr!r} {known}")
    if not callable(factory):
        raise InputError(f"{spec} is a {type(factory).__name__}, not a factory {known}")
    required = _required_params(factory)
    if required:
        raise InputError(f"{spec} takes arguments ({', '.join(required)}); a factory takes "
                         f"none {known}")
    result = factory()
    if not (isinstance(result, (tuple, list)) and len(result) == 2
            and isinstance(result[0], torch.nn.Module) and isinstance(result[1], (tuple, list))):
        raise InputError(f"{spec} returned {type(result).__name__}; a factory returns "
                         f"(model, example_inputs): an nn.Module and a tuple of inputs")
    model, inputs = result
    return model, tuple(inputs)
