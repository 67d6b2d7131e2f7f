"""Spec guards on a VK00 graph as it was serialized: will the runtime load it?

The partitioner-time check (`codegen.et.guards`) decides delegation per node of the edge
graph, but the Vulkan preprocessing then rewrites the partition: it fuses patterns into
`et_vk.*` operators (rotary embeddings, conv + clamp, SDPA, ...), squeezes inputs and
inserts prepacks, so the calls the runtime finally builds are not the nodes the
partitioner saw. Here every call of the serialized chain whose operator a spec serves is
planned on exactly the values the runtime's loader makes of the flatbuffer (tensors at
their serialized dtype and dims, int64 read as int32, SymInts at their load-time value,
the output last; a SymInt an op computes, such as `sym_size`, at what the op computes
from those), with the handler's own checks and guards (`interpret.plan`); a call its spec
rejects is one the .pte fails to load on, with the same message.
"""

from __future__ import annotations

from codegen.et.guards import Rejection, values_rejection
from codegen.et.vk_graph import VkGraph, op_target
from codegen.graph.dtypes import graph_dtype
from codegen.graph.values import Value

# operators the backend runs itself, not through a handler
BUILTINS = frozenset({"et_vk.prepack.default"})


def graph_value(graph: VkGraph, index: int, symints: dict[int, int] | None = None) -> Value:
    """Value `index` of the graph, as the runtime's loader holds it (IndexError for an id
    the graph does not have); a SymInt an earlier call computed at its `symints` value."""
    if not 0 <= index < len(graph.values):
        raise IndexError(index)
    v = graph.values[index]
    if v.kind == "VkTensor":
        return Value("Tensor", None, graph_dtype(v.data), v.dims)
    if v.kind == "ValueList":
        return Value("ValueList", [graph_value(graph, i, symints) for i in v.data])
    if v.kind == "SymInt" and symints and index in symints:
        return Value("SymInt", symints[index])
    return Value(v.kind, v.data)


def vk_rejections(graph: VkGraph, where: str = "") -> list[tuple[str, Rejection]]:
    """(operator as the graph holds it, rejection) for each call of `graph` whose spec
    rejects the values it will be built with; a node is named by its chain index, as the
    runtime's load error names it, then `where` (" of delegate 1")."""
    found = []
    symints: dict[int, int] = {}  # SymInt value id -> what the call computing it gave
    for i, call in enumerate(graph.chain):
        target = op_target(call.name)
        if target in BUILTINS:
            continue
        try:
            values = [graph_value(graph, a, symints) for a in call.args]
        except IndexError:
            continue  # a dangling value id: the loader's own error, not a guard's
        rejection, symint = values_rejection(target, values, with_symint=True)
        if rejection is not None:
            found.append((call.name, Rejection(f"{i}{where}", target, *rejection)))
        elif symint is not None:  # the loader builds it: later calls read this value
            symints[call.args[-1]] = symint
    return found
