"""Spec guards at export: a node goes into the delegate only if its spec accepts it.

Design. ExecuTorch's Vulkan partitioner decides delegation per node from the target
alone (plus Vulkan's own layout checks), so a call the spec's checks or guards reject
(say a max pool with ceil_mode=True) would be delegated and fail when the .pte loads.
Here every node the partitioner would take is checked the way the runtime will check
it, before the partition is drawn:

- `spec_rejection(target, given, outputs)` is the one check: the torch-side arguments
  (one per schema argument; tensors need only a shape and dtype, so data-less meta
  tensors do) become graph values through each argument kind's `check_constant` and
  `graph_value` (which narrows int64 tensors to int32 like the serializer), the outputs
  become tensor values of their shapes, and the lowering's plan steps run on them
  (`interpret.plan`: the checks, guards and messages of the generated C++; grid limits
  are not a delegation question, so the per-dimension limit is set high). An `OpError` is
  the rejection: the runtime's message and the argument it names.
- `node_rejection(node)` feeds it an FX node: arguments in schema order (graph nodes by
  their `meta["val"]`, SymInts at their current value), outputs from the node's own
  meta value. With `fp16` (the partitioner's force_fp16) every float32 tensor is checked
  as the float16 tensor the serializer will write (`half_graph`: float64 stays float32,
  as ExecuTorch's get_effective_dtype has it).
- `checking_guards(checker)` swaps ExecuTorch's `VulkanSupportedOperators` (the
  partitioner's per-node `is_node_supported`) for a subclass that also asks a
  `GuardChecker`, for the duration of one lowering; a rejected node stays outside the
  delegate and runs on ExecuTorch's CPU kernels. Nodes of a pattern the Vulkan
  preprocessing fuses into one operator are left to the pattern (the fused call is not
  known yet), and targets without a spec are left to the allowlist.
- `kernel_call_rejection(plan, call)` feeds it a CPU kernel call read back from a .pte
  (an out-variant: its functional target is the spec target with the same arguments),
  so the coverage of a .pte names the guard too.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from codegen.executors.call import schema_args, torch_op
from codegen.lower.catalog import catalog, lowering
from codegen.lower import interpret
from codegen.language.args import OutputList, Outputs
from codegen.graph.dtypes import graph_dtype
from codegen.graph.errors import OpError
from codegen.graph.values import Value

# Dispatch grids are not a delegation question: plan as if any grid fits.
MAX_PER_DIM = 65535


@dataclass(frozen=True)
class Rejection:
    """A call its spec rejects: where it is, the runtime's message, the argument named."""

    node: str  # the graph node's name (or the instruction of a .pte)
    target: str  # ns.op.overload of the spec
    argument: str
    message: str

    def __str__(self) -> str:
        return f"node {self.node} ({self.target}), argument {self.argument}: {self.message}"


def target_name(target: Any) -> str | None:
    """`ns.op.overload` of an operator (edge or ATen overload); None for anything else."""
    schema = getattr(target, "_schema", None)
    if schema is None:
        return None
    return f"{schema.name.replace('::', '.')}.{schema.overload_name or 'default'}"


def meta_tensor(shape, dtype) -> Any:
    import torch

    return torch.empty([int(d) for d in shape], dtype=dtype, device="meta")


def _argument(op: str, message: str) -> str:
    """The argument a runtime message names ("WebGPU <op>: <argument> <what> ...")."""
    prefix = f"WebGPU {op}: "
    return message[len(prefix):].split(" ", 1)[0] if message.startswith(prefix) else "?"


def _output_value(t) -> Value:
    dtype = graph_dtype(str(t.dtype).removeprefix("torch."))
    return Value("Tensor", None, dtype, tuple(int(d) for d in t.shape), source=t)


def half_graph(v: Value) -> Value:
    """A graph value as force_fp16 serializes it: a float32 tensor (one torch holds as
    float32, not a float64 narrowed to it) as float16; value lists item by item."""
    if v.kind == "ValueList":
        return Value("ValueList", [half_graph(x) for x in v.data])
    source = str(getattr(v.source, "dtype", "")).removeprefix("torch.")
    if v.kind == "Tensor" and v.dtype == "float32" and source == "float32":
        return Value("Tensor", None, "float16", v.dims, source=v.source)
    return v


def spec_rejection(target: str, given: list, outputs: list,
                   fp16: bool = False) -> tuple[str, str] | None:
    """(argument, message) when the spec serving `target` rejects a call with these
    torch-side arguments (one per schema argument) and output tensors; None when it
    accepts the call or no spec serves the target. `fp16`: checked as force_fp16 will
    serialize the call (`half_graph`)."""
    bound = catalog().by_target().get(target)
    if bound is None:
        return None
    try:
        values = []
        for arg, v in zip(bound.op.inputs, given):
            arg.check_constant(v, bound)  # what the graph will not carry, checked here
            values.append(arg.graph_value(v))
    except OpError as e:
        return _argument(bound.op.name, str(e)), str(e)
    outs = [_output_value(t) for t in outputs]
    multi = isinstance(bound.op.args[-1], (Outputs, OutputList))
    values.append(Value("ValueList", outs) if multi else outs[0])
    return values_rejection(target, [half_graph(v) for v in values] if fp16 else values)


def values_rejection(target: str, values: list[Value], with_symint: bool = False):
    """(argument, message) when the spec serving `target` rejects a call with these graph
    values (one per spec argument, the output last), as its handler would when the graph
    is built; None when it accepts them or no spec serves the target. `with_symint`: a
    pair (that, the SymInt the op computes or None)."""
    bound = catalog().by_target().get(target)
    rejection, symint = None, None
    if bound is not None:
        try:
            if len(values) != len(bound.op.args):  # the handler's check_arg_count
                raise OpError(f"WebGPU {bound.op.name}: arguments have the wrong count (got "
                              f"{len(values)}, expected {len(bound.op.args)})")
            symint = interpret.plan(lowering(bound.op.name), values, MAX_PER_DIM).symint
        except OpError as e:
            rejection = _argument(bound.op.name, str(e)), str(e)
    return (rejection, symint) if with_symint else rejection


# --- FX nodes (the partitioner) ----------------------------------------------------------
def _torch_value(v: Any) -> Any:
    """A node's argument as a torch-side value: a graph node by its meta value."""
    from torch.fx import Node

    if isinstance(v, (list, tuple)):
        return type(v)(_torch_value(x) for x in v)
    return _from_meta(v.meta.get("val")) if isinstance(v, Node) else v


def _from_meta(val: Any) -> Any:
    """Tensors as data-less meta tensors, symbolic scalars at their current value."""
    import torch

    if isinstance(val, torch.Tensor):
        return meta_tensor(val.shape, val.dtype)
    for sym, plain in ((torch.SymInt, int), (torch.SymFloat, float), (torch.SymBool, bool)):
        if isinstance(val, sym):
            return plain(val)
    if isinstance(val, (list, tuple)):
        return type(val)(_from_meta(x) for x in val)
    return val


def node_rejection(node, fp16: bool = False) -> Rejection | None:
    """Whether the spec of `node`'s target rejects the call (None: it accepts, or no spec
    serves the target). Arguments are read in schema order as the Vulkan serializer
    reads them (positional, else keyword, else the schema default); `fp16`: as
    force_fp16 serializes them."""
    target = target_name(node.target)
    if target is None or target not in catalog().by_target():
        return None
    given = []
    for i, sa in enumerate(node.target._schema.arguments):
        if not sa.kwarg_only and i < len(node.args):
            given.append(node.args[i])
        elif sa.name in node.kwargs:
            given.append(node.kwargs[sa.name])
        else:
            given.append(sa.default_value if sa.has_default_value() else None)
    out = node.meta["val"]
    outputs = list(out) if isinstance(out, (list, tuple)) else [out]
    found = spec_rejection(target, [_torch_value(v) for v in given], outputs, fp16)
    return None if found is None else Rejection(node.name, target, *found)


class GuardChecker:
    """Checks the nodes a partitioner asks about and keeps what it rejected (by node
    name; a partitioner may ask about a node more than once); `fp16`: the lowering
    forces float16 (node_rejection)."""

    def __init__(self, fp16: bool = False) -> None:
        self.rejections: dict[str, Rejection] = {}
        self.fp16 = fp16

    def accepts(self, node) -> bool:
        if node.name not in self.rejections:
            rejection = node_rejection(node, self.fp16)
            if rejection is None:
                return True
            self.rejections[node.name] = rejection
        return False


@contextlib.contextmanager
def checking_guards(checker: GuardChecker):
    """For one lowering with the Vulkan partitioner: a node it would delegate is also
    asked of `checker`. (VulkanPartitioner builds its VulkanSupportedOperators inside
    `partition`, so the class is swapped in the partitioner's module.)"""
    import executorch.backends.vulkan.partitioner.vulkan_partitioner as vulkan_partitioner

    base = vulkan_partitioner.VulkanSupportedOperators

    class GuardedSupport(base):
        def allows(self, target: str) -> bool:
            """The allowlist, matched by name: an ATen op the edge dialect leaves alone
            (scalar_tensor) is not the edge overload the allowlist holds."""
            if self.operator_allowlist is None:
                return True
            if not hasattr(self, "allowed_names"):
                self.allowed_names = {target_name(op) for op in self.operator_allowlist}
            return target in self.allowed_names

        def is_node_supported(self, submodules, node) -> bool:
            target = served_target(node)
            if node.op == "call_function" and node not in self.fusable_nodes and target:
                # A spec serves it: its checks and guards decide, not Vulkan's storage and
                # layout rules (the WebGPU runtime keeps every tensor a contiguous buffer).
                return self.allows(target) and checker.accepts(node)
            if not super().is_node_supported(submodules, node):
                return False
            if node.op != "call_function" or node in self.fusable_nodes:
                return True
            return checker.accepts(node)

    vulkan_partitioner.VulkanSupportedOperators = GuardedSupport
    try:
        with _buffer_features():
            yield checker
    finally:
        vulkan_partitioner.VulkanSupportedOperators = base


def edge_op(target: str):
    """`aten.relu.default` -> exir_ops.edge.aten.relu.default (None when unknown)."""
    from executorch.exir.dialects._ops import ops as exir_ops

    ns, name, overload = target.split(".")
    try:
        return getattr(getattr(getattr(exir_ops.edge, ns), name), overload)
    except (AttributeError, RuntimeError):
        return None


def served_target(node) -> str | None:
    """`ns.op.overload` of the node's target when a spec serves it."""
    target = target_name(getattr(node, "target", None))
    return target if target in catalog().by_target() else None


@contextlib.contextmanager
def _buffer_features():
    """Every target a spec serves, registered with ExecuTorch's Vulkan operator registry
    as contiguous buffers of any dtype and rank, for one lowering: the preprocessing
    (which picks each tensor's storage from the registry) then needs no entry Vulkan lacks
    (any.dim, cumsum, ...) and inserts no layout transitions for ours. An op that
    prepacks its own weights keeps doing so."""
    from executorch.backends.vulkan import op_registry, utils

    registry = op_registry.vulkan_supported_ops
    saved = dict(registry)
    for edge in filter(None, map(edge_op, catalog().by_target())):
        own = registry.get(edge) or registry.get(edge.name())
        registry[edge] = op_registry.OpFeatures(
            inputs_storage=utils.CONTIGUOUS_BUFFER, supports_resize=True, supports_highdim=True,
            supports_prepacking=own.supports_prepacking if own else False)
    try:
        yield
    finally:
        registry.clear()
        registry.update(saved)


# --- CPU kernel calls of a .pte -------------------------------------------------------------
def _functional_target(name: str, overload: str) -> tuple[str, Any] | None:
    """The spec target an out-variant kernel computes (`aten::add`, `out` ->
    aten.add.Tensor: same operator, same arguments less the out ones), with the
    out-variant's schema; None when no spec serves it."""
    ns, op = name.split("::")
    candidates = [t for t in catalog().by_target() if t.startswith(f"{ns}.{op}.")]
    if not candidates:
        return None
    out_schema = torch_op(f"{ns}.{op}.{overload}")._schema
    inputs = [a.name for a in out_schema.arguments if not a.is_out]
    for target in candidates:
        if [sa.name for sa in schema_args(target)[1]] == inputs:
            return target, out_schema
    return None


def _evalue(values: list, index: int) -> Any:
    """A .pte value as a torch-side argument (tensors as meta tensors)."""
    from executorch.exir.tensor import get_scalar_type

    if index < 0:
        return None
    val = values[index].val
    kind = type(val).__name__
    if kind == "Tensor":
        return meta_tensor(val.sizes, get_scalar_type(val.scalar_type))
    if kind in ("TensorList", "OptionalTensorList", "IntList"):  # items index values
        return [_evalue(values, i) for i in val.items]
    if kind in ("DoubleList", "BoolList"):
        return list(val.items)
    if kind == "Double":
        return float(val.double_val)  # "inf" and "nan" are written as text
    if kind == "Null":
        return None
    return getattr(val, {"Int": "int_val", "Bool": "bool_val", "String": "string_val"}[kind])


def _enum_constant(v: Any, schema_arg) -> Any:
    """A dtype, memory format or layout the .pte holds as an Int, as the torch object
    (the numbering of ExecuTorch's emitter)."""
    import torch
    from executorch.exir.schema import ScalarType
    from executorch.exir.tensor import get_scalar_type

    kind = str(schema_arg.real_type).removeprefix("Optional[").rstrip("]")
    if not isinstance(v, int) or isinstance(v, bool):
        return v
    if kind == "ScalarType":
        return get_scalar_type(ScalarType(v))
    if kind == "MemoryFormat":
        return (torch.contiguous_format, torch.preserve_format)[v]
    if kind == "Layout":
        return (torch.strided, torch.sparse_coo)[v]
    return v


def kernel_call_rejection(plan, call, where: str) -> Rejection | None:
    """Whether a spec serves the CPU kernel `call` (a KernelCall of execution plan
    `plan`) and rejects its arguments: why the export kept it off the delegate."""
    operator = plan.operators[call.op_index]
    found = _functional_target(operator.name, operator.overload)
    if found is None:
        return None
    target, out_schema = found
    if not any(a.is_out for a in out_schema.arguments):
        return None  # not an out-variant: no outputs to check against
    args = [_enum_constant(_evalue(plan.values, i), a)
            for i, a in zip(call.args, out_schema.arguments)]
    given = [v for v, a in zip(args, out_schema.arguments) if not a.is_out]
    outputs = [v for v, a in zip(args, out_schema.arguments) if a.is_out]
    rejection = spec_rejection(target, given, outputs)
    return None if rejection is None else Rejection(where, target, *rejection)
