"""Read a VK00 graph straight from its flatbuffer: the operator chain, each call's
arguments and the values they refer to (what the runtime's loader builds the graph from).

ExecuTorch's own reader round-trips the flatbuffer through flatc's JSON, which writes
non-finite doubles (an attention mask's -inf, a NaN fill) as bare `inf`/`nan` that no JSON
parser accepts; reading the fields we need directly has no such limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flatbuffers import encode, number_types as N, table

# vtable slots, in schema.fbs field order
VK_GRAPH_CHAIN, VK_GRAPH_VALUES = 1, 2  # table VkGraph { version, chain, values, ... }
OPERATOR_CALL_NAME, OPERATOR_CALL_ARGS = 1, 2  # table OperatorCall { node_id, name, args }
VK_VALUE_TYPE, VK_VALUE = 0, 1  # table VkValue { value: GraphTypes } (union: type, table)
TENSOR_DATATYPE, TENSOR_DIMS = 0, 1  # table VkTensor { datatype, dims, ... }
# union GraphTypes, in schema order (0 is NONE)
GRAPH_TYPES = (None, "Null", "Int", "Double", "Bool", "VkTensor", "IntList", "DoubleList",
               "BoolList", "ValueList", "String", "SymInt")
# enum VkDataType -> dtype name
VK_DTYPES = {0: "bool", 1: "uint8", 2: "int8", 3: "int32", 4: "float16", 5: "float32",
             6: "float64", 7: "int64"}
_SCALARS = {"Int": N.Int64Flags, "Double": N.Float64Flags, "Bool": N.BoolFlags,
            "SymInt": N.Int32Flags}
_LISTS = {"IntList": N.Int64Flags, "DoubleList": N.Float64Flags, "BoolList": N.BoolFlags,
          "ValueList": N.Int32Flags}


class VkGraphError(ValueError):
    pass


@dataclass(frozen=True)
class VkValue:
    """One value of the graph: `kind` as GraphTypes names it; `data` the number, list,
    string (a ValueList: the value ids of its items; a SymInt: its value at load) or, for
    a VkTensor, its dtype name (as serialized: int64 means int32 on the GPU)."""

    kind: str
    data: Any = None
    dims: tuple[int, ...] = ()


@dataclass(frozen=True)
class VkCall:
    name: str  # the operator as the graph holds it (op_target resolves a bare name)
    args: tuple[int, ...]  # value ids, the output(s) last


@dataclass(frozen=True)
class VkGraph:
    chain: tuple[VkCall, ...]
    values: tuple[VkValue, ...]


def _field(tab: table.Table, slot: int) -> int:
    return tab.Offset(4 + 2 * slot)


def _root(flatbuffer: bytes) -> table.Table:
    if len(flatbuffer) < 8 or flatbuffer[4:8] != b"VK00":
        raise VkGraphError(f"not a VK00 flatbuffer (identifier {bytes(flatbuffer[4:8])!r})")
    buf = bytearray(flatbuffer)
    return table.Table(buf, encode.Get(N.UOffsetTFlags.packer_type, buf, 0))


def _tables(tab: table.Table, slot: int) -> list[table.Table]:
    """The tables of a vector-of-tables field."""
    o = _field(tab, slot)
    if not o:
        return []
    start = tab.Vector(o)
    return [table.Table(tab.Bytes, tab.Indirect(start + 4 * i)) for i in range(tab.VectorLen(o))]


def _scalars(tab: table.Table, slot: int, flags) -> list:
    o = _field(tab, slot)
    if not o:
        return []
    start = tab.Vector(o)
    return [tab.Get(flags, start + i * flags.bytewidth) for i in range(tab.VectorLen(o))]


def chain_op_names(flatbuffer: bytes) -> list[str]:
    """The operator of each entry of a VK00 flatbuffer's chain, in order, as the graph
    holds it (a bare name stays bare: `op_target` gives the runtime's lookup)."""
    return [call.name for call in read_graph(flatbuffer, values=False).chain]


def read_graph(flatbuffer: bytes, values: bool = True) -> VkGraph:
    """The chain (operator names and argument ids) and, with `values`, every value."""
    root = _root(flatbuffer)
    chain = []
    for i, call in enumerate(_tables(root, VK_GRAPH_CHAIN)):
        name = _field(call, OPERATOR_CALL_NAME)
        if not name:
            raise VkGraphError(f"chain entry {i} has no operator name")
        args = tuple(_scalars(call, OPERATOR_CALL_ARGS, N.Int32Flags))
        chain.append(VkCall(call.String(call.Pos + name).decode(), args))
    read = [_value(v, i) for i, v in enumerate(_tables(root, VK_GRAPH_VALUES))] if values else []
    return VkGraph(tuple(chain), tuple(read))


def _value(v: table.Table, index: int) -> VkValue:
    o = _field(v, VK_VALUE_TYPE)
    kind_id = v.Get(N.Uint8Flags, v.Pos + o) if o else 0
    kind = GRAPH_TYPES[kind_id] if kind_id < len(GRAPH_TYPES) else None
    if kind is None:
        raise VkGraphError(f"value {index} has no known type ({kind_id})")
    o = _field(v, VK_VALUE)
    if not o:
        return VkValue(kind)
    t = table.Table(v.Bytes, 0)
    v.Union(t, o)
    if kind == "Null":
        return VkValue(kind)
    if kind in _SCALARS:
        f = _field(t, 0)
        return VkValue(kind, t.Get(_SCALARS[kind], t.Pos + f) if f else
                       (False if kind == "Bool" else 0))
    if kind in _LISTS:
        return VkValue(kind, list(_scalars(t, 0, _LISTS[kind])))
    if kind == "String":
        f = _field(t, 0)
        return VkValue(kind, t.String(t.Pos + f).decode() if f else "")
    f = _field(t, TENSOR_DATATYPE)  # VkTensor
    code = t.Get(N.Int8Flags, t.Pos + f) if f else 0
    return VkValue(kind, VK_DTYPES.get(code, f"VkDataType {code}"),
                   tuple(_scalars(t, TENSOR_DIMS, N.Uint32Flags)))


# Operators the serializer writes by their bare name (`OpOverload.__name__`, without the
# namespace) that are not ATen's: ExecuTorch's LLM custom ops, left out of the edge dialect.
LLAMA_OPS = ("sdpa_with_kv_cache", "update_cache", "custom_sdpa")
# Python's operators on SymInts (the graph computes a sequence end as `start + length`),
# serialized by their function's name: the ATen int ops with the same meaning.
SYMINT_OPERATORS = ("add", "sub", "mul", "floordiv")


def op_target(name: str) -> str:
    """The registry target of a chain entry's operator name: the serializer writes an ATen
    operator the edge dialect left alone (scalar_tensor) by its bare name
    ("scalar_tensor.default"), ExecuTorch's LLM ops likewise ("sdpa_with_kv_cache.default":
    llama's), and SymInt arithmetic by the Python operator's name ("add": aten.add.int).
    The C++ loader's op_target does the same."""
    if name in SYMINT_OPERATORS:
        return f"aten.{name}.int"
    if name.count(".") == 1:
        return f"{'llama' if name.split('.')[0] in LLAMA_OPS else 'aten'}.{name}"
    return name
