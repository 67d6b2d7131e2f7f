"""Read the operator chain of a VK00 graph straight from its flatbuffer.

ExecuTorch's own reader round-trips the flatbuffer through flatc's JSON, which writes
non-finite doubles (an attention mask's -inf, a NaN fill) as bare `inf`/`nan` that no JSON
parser accepts; reading the two fields we need directly has no such limit.
"""

from __future__ import annotations

from flatbuffers import encode, number_types, table

# vtable slots, in schema.fbs field order
VK_GRAPH_CHAIN = 1  # table VkGraph { version, chain, values, ... }
OPERATOR_CALL_NAME = 1  # table OperatorCall { node_id, name, args }


class VkGraphError(ValueError):
    pass


def _field(tab: table.Table, slot: int) -> int:
    return tab.Offset(4 + 2 * slot)


def chain_op_names(flatbuffer: bytes) -> list[str]:
    """The operator target of each entry of a VK00 flatbuffer's chain, in order."""
    if len(flatbuffer) < 8 or flatbuffer[4:8] != b"VK00":
        raise VkGraphError(f"not a VK00 flatbuffer (identifier {bytes(flatbuffer[4:8])!r})")
    buf = bytearray(flatbuffer)
    root = table.Table(buf, encode.Get(number_types.UOffsetTFlags.packer_type, buf, 0))
    chain = _field(root, VK_GRAPH_CHAIN)
    if not chain:
        return []
    start, count = root.Vector(chain), root.VectorLen(chain)
    names = []
    for i in range(count):
        call = table.Table(buf, root.Indirect(start + 4 * i))
        name = _field(call, OPERATOR_CALL_NAME)
        if not name:
            raise VkGraphError(f"chain entry {i} has no operator name")
        names.append(op_target(call.String(call.Pos + name).decode()))
    return names


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
