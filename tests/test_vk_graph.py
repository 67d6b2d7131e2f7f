"""The VK00 chain reader (codegen/et/vk_graph.py) on flatbuffers built here: operator
names in order as the graph holds them, bare names resolved by op_target, and a clear error
for a blob that is not a VK00 graph."""

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


def test_names_as_the_graph_holds_them_bare_ones_resolved_by_op_target():
    """A bare name stays bare (coverage prints what the graph holds: the bare
    `sdpa_with_kv_cache.default` is no `aten.sdpa_with_kv_cache.default`); op_target gives
    the runtime's lookup, which takes a bare name as ATen's."""
    names = ["scalar_tensor.default", "sdpa_with_kv_cache.default"]
    assert chain_op_names(vk_graph(names)) == names
    assert op_target("scalar_tensor.default") == "aten.scalar_tensor.default"
    assert op_target("et_vk.sdpa.default") == "et_vk.sdpa.default"


def test_empty_chain():
    assert chain_op_names(vk_graph([])) == []


def test_not_a_vk00_graph():
    with pytest.raises(VkGraphError, match=r"not a VK00 flatbuffer \(identifier b'XXXX'\)"):
        chain_op_names(b"\x00\x00\x00\x00XXXX" + bytes(8))


def test_coverage_prints_names_as_the_graph_holds_them():
    """The bare `sdpa_with_kv_cache.default` (llama's op, serialized by its bare name) is
    listed as such, not as the `aten.sdpa_with_kv_cache.default` no one defines."""
    from codegen.et.coverage import Coverage
    from codegen.et.vk_graph import read_graph

    coverage = Coverage()
    coverage.add_graph(read_graph(vk_graph(["sdpa_with_kv_cache.default"])),
                       frozenset({"aten.relu.default"}))
    assert coverage.missing == {"sdpa_with_kv_cache.default": 1}
    assert "aten.sdpa_with_kv_cache" not in coverage.table()
    assert "sdpa_with_kv_cache.default      1  missing: no WebGPU handler" in coverage.table()


def test_values_and_arguments_read_back_from_the_serializer():
    """Every value kind of a graph written by ExecuTorch's own Vulkan serializer reads back
    as the runtime's loader takes it (the values the VK00 guard check plans on)."""
    pytest.importorskip("executorch")
    from executorch.backends.vulkan.serialization import vulkan_graph_schema as vk
    from executorch.backends.vulkan.serialization.vulkan_graph_serialize import (
        extract_vk_flatbuffer, serialize_vulkan_graph)

    from codegen.et.vk_graph import VkCall, VkValue, read_graph

    values = [vk.VkTensor(vk.VkDataType.FLOAT32, [2, 3], -1, 0), vk.Int(-7), vk.Double(0.5),
              vk.Bool(True), vk.IntList([1, -2]), vk.DoubleList([1.5]), vk.BoolList([True, False]),
              vk.ValueList([0, 1]), vk.String("tanh"), vk.SymInt(0), vk.Null(),
              vk.VkTensor(vk.VkDataType.INT64, [4], -1, 1)]
    graph = vk.VkGraph("0", [vk.OperatorCall(0, "aten.add.Tensor", [0, 11, 2, 0]),
                             vk.OperatorCall(1, "scalar_tensor.default", [1, 10])],
                       [vk.VkValue(v) for v in values], [0], [0], [], [])
    read = read_graph(extract_vk_flatbuffer(serialize_vulkan_graph(graph, [], [])))
    assert read.chain == (VkCall("aten.add.Tensor", (0, 11, 2, 0)),
                          VkCall("scalar_tensor.default", (1, 10)))
    assert read.values == (VkValue("VkTensor", "float32", (2, 3)), VkValue("Int", -7),
                           VkValue("Double", 0.5), VkValue("Bool", True),
                           VkValue("IntList", [1, -2]), VkValue("DoubleList", [1.5]),
                           VkValue("BoolList", [True, False]), VkValue("ValueList", [0, 1]),
                           VkValue("String", "tanh"), VkValue("SymInt", 0), VkValue("Null"),
                           VkValue("VkTensor", "int64", (4,)))
