"""The VK00 chain reader (codegen/et/vk_graph.py) on flatbuffers built here: operator
names in order, bare ATen names resolved to their target, and a clear error for a blob
that is not a VK00 graph."""

import flatbuffers
import pytest

from codegen.et.vk_graph import VkGraphError, chain_op_names, op_target


def vk_graph(names: list[str]) -> bytes:
    """A VkGraph with only its chain (vtable slot 1), each entry an OperatorCall with only
    its name (slot 1), as the Vulkan serializer lays them out."""
    b = flatbuffers.Builder(256)
    calls = []
    for name in names:
        text = b.CreateString(name)
        b.StartObject(3)
        b.PrependUOffsetTRelativeSlot(1, text, 0)
        calls.append(b.EndObject())
    b.StartVector(4, len(calls), 4)
    for call in reversed(calls):
        b.PrependUOffsetTRelative(call)
    chain = b.EndVector()
    b.StartObject(12)
    b.PrependUOffsetTRelativeSlot(1, chain, 0)
    b.Finish(b.EndObject(), file_identifier=b"VK00")
    return bytes(b.Output())


def test_chain_names_in_order():
    names = ["aten.linear.default", "et_vk.prepack.default", "aten.where.self"]
    assert chain_op_names(vk_graph(names)) == names


def test_bare_aten_names_resolve_to_their_target():
    assert chain_op_names(vk_graph(["scalar_tensor.default"])) == ["aten.scalar_tensor.default"]
    assert op_target("et_vk.sdpa.default") == "et_vk.sdpa.default"


def test_empty_chain():
    assert chain_op_names(vk_graph([])) == []


def test_not_a_vk00_graph():
    with pytest.raises(VkGraphError, match=r"not a VK00 flatbuffer \(identifier b'XXXX'\)"):
        chain_op_names(b"\x00\x00\x00\x00XXXX" + bytes(8))
