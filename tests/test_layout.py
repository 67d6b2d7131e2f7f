"""The WGSL layout engine: offsets proven on a real adapter and in the C++ struct."""

import struct
import subprocess

import numpy as np
import pytest

from codegen.language.layout import LayoutError, layout_struct, parse_type

STRUCTS = {
    "scalars": [("a", "u32"), ("b", "f32"), ("c", "i32")],
    "vec_alignment": [("n", "u32"), ("v2", "vec2<f32>"), ("m", "u32"), ("v4", "vec4<u32>"),
                      ("tail", "f32")],
    "vec3_size_12": [("v3", "vec3<f32>"), ("after", "u32"), ("w3", "vec3<i32>")],
    "arrays": [("count", "u32"), ("dims", "array<vec4<u32>, 2>"), ("scale", "f32"),
               ("rows", "array<vec3<f32>, 2>")],
}


def test_known_offsets():
    lay = layout_struct("P", STRUCTS["vec_alignment"])
    assert [(f.name, f.offset) for f in lay.fields] == [("n", 0), ("v2", 8), ("m", 16), ("v4", 32),
                                                       ("tail", 48)]
    assert lay.size == 64
    lay = layout_struct("P", STRUCTS["vec3_size_12"])
    assert [f.offset for f in lay.fields] == [0, 12, 16]
    assert lay.size == 32


def test_uniform_array_stride_must_be_16():
    with pytest.raises(LayoutError, match=r"array<vec4<u32>, 2>"):
        parse_type("array<u32, 8>")
    assert parse_type("array<u32, 8>", uniform=False).size == 32


def _values(lay):
    """Distinct recognisable values for every component."""
    out, k = {}, 1
    for f in lay.fields:
        n = f.type.components
        if f.type.scalar == "f32":
            vals = [k + 0.5 + i for i in range(n)]
        elif f.type.scalar == "i32":
            vals = [-(k + i) for i in range(n)]
        else:
            vals = [k + i for i in range(n)]
        k += n
        out[f.name] = vals if n > 1 else vals[0]
    return out


def _probe_shader(lay) -> str:
    """Reads every component back through WGSL's own view of the struct."""
    writes, slot = [], 0
    for f in lay.fields:
        t = f.type
        for e in range(t.count):
            for lane in range(t.lanes):
                ref = f"params.{f.name}" + (f"[{e}]" if t.count > 1 else "") + (
                    f"[{lane}]" if t.lanes > 1 else "")
                writes.append(f"  out[{slot}] = bitcast<u32>({ref});")
                slot += 1
    return (lay.wgsl().replace(f"struct {lay.name} ", "struct Params ")
            + "\n@group(0) @binding(0) var<uniform> params: Params;\n"
            "@group(0) @binding(1) var<storage, read_write> out: array<u32>;\n"
            "@compute @workgroup_size(1)\nfn main() {\n" + "\n".join(writes) + "\n}\n"), slot


@pytest.mark.parametrize("name", sorted(STRUCTS))
def test_offsets_on_adapter(name):
    import wgpu

    from codegen.executors.wgpu_device import device

    lay = layout_struct("Params", STRUCTS[name])
    values = _values(lay)
    code, n = _probe_shader(lay)
    _, dev = device()
    pipe = dev.create_compute_pipeline(layout="auto", compute={
        "module": dev.create_shader_module(code=code), "entry_point": "main"})
    ubuf = dev.create_buffer_with_data(data=lay.pack(values), usage=wgpu.BufferUsage.UNIFORM)
    obuf = dev.create_buffer(size=4 * n, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    group = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": ubuf}}, {"binding": 1, "resource": {"buffer": obuf}}])
    enc = dev.create_command_encoder()
    cp = enc.begin_compute_pass()
    cp.set_pipeline(pipe)
    cp.set_bind_group(0, group)
    cp.dispatch_workgroups(1)
    cp.end()
    dev.queue.submit([enc.finish()])
    got = np.frombuffer(bytes(dev.queue.read_buffer(obuf)), dtype=np.uint32)
    want = []
    for f in lay.fields:
        vals = values[f.name] if isinstance(values[f.name], list) else [values[f.name]]
        code_ = {"u32": "<I", "i32": "<i", "f32": "<f"}[f.type.scalar]
        want += [struct.unpack("<I", struct.pack(code_, v))[0] for v in vals]
    assert list(got) == want


@pytest.mark.parametrize("name", sorted(STRUCTS))
def test_cpp_struct_matches(name, tmp_path):
    lay = layout_struct("Params", STRUCTS[name])
    members = "\n".join("  " + m.declaration() for m in lay.cpp_members)
    asserts = "\n".join(f"static_assert(offsetof(Params, {f.name}) == {f.offset}, \"\");"
                        for f in lay.fields)
    src = tmp_path / "s.cpp"
    src.write_text(f"#include <cstddef>\n#include <cstdint>\nstruct Params {{\n{members}\n}};\n"
                   f"{asserts}\nstatic_assert(sizeof(Params) == {lay.size}, \"\");\n")
    subprocess.run(["g++", "-std=c++17", "-fsyntax-only", str(src)], check=True)
