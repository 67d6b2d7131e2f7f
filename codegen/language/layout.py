"""WGSL memory layout for Params structs (W3C WGSL, "Memory Layout").

Implements alignment and size of the host-shareable types a Params struct may hold
(scalars, vectors, fixed-size arrays of those), structure member layout, and the
extra constraints of the uniform address space (array stride a multiple of 16, struct
alignment rounded up to 16). The same computed layout drives the WGSL struct, the C++
struct with its explicit padding and offset asserts, and the harness's byte packing.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from typing import Any, Sequence

SCALARS = {"u32": ("uint32_t", "I"), "i32": ("int32_t", "i"), "f32": ("float", "f")}

_VEC = re.compile(r"^vec([234])<(u32|i32|f32)>$")
# element types of storage arrays only (never in Params): half floats (shader-f16) and
# atomics (the word of a portable half store)
_STORAGE_ONLY = re.compile(r"^(?:(f16)|vec([234])<f16>|atomic<(u32|i32)>)$")
_ARRAY = re.compile(r"^array<\s*(.+?)\s*,\s*(\d+)\s*>$")


class LayoutError(ValueError):
    """A Params field the WGSL layout rules cannot place."""


@dataclass(frozen=True)
class WgslType:
    text: str  # canonical WGSL spelling
    scalar: str  # u32 | i32 | f32
    lanes: int  # components per element (1 for scalars)
    count: int  # array length (1 when not an array)
    align: int
    size: int
    stride: int  # bytes between array elements (size for non-arrays)

    @property
    def components(self) -> int:
        return self.lanes * self.count


def parse_type(text: str, uniform: bool = True) -> WgslType:
    """Parses a Params field type and computes its alignment and size."""
    t = re.sub(r"\s+", "", text)
    if t in SCALARS:
        return WgslType(t, t, 1, 1, 4, 4, 4)
    m = _VEC.match(t)
    if m:
        n = int(m.group(1))
        align = {2: 8, 3: 16, 4: 16}[n]
        return WgslType(t, m.group(2), n, 1, align, 4 * n, 4 * n)
    m = _STORAGE_ONLY.match(t)
    if m and not uniform:
        if m.group(3):
            return WgslType(t, m.group(3), 1, 1, 4, 4, 4)
        n = int(m.group(2) or 1)
        align = {1: 2, 2: 4, 3: 8, 4: 8}[n]
        return WgslType(t, "f16", n, 1, align, 2 * n, _round_up(align, 2 * n))
    m = _ARRAY.match(text.strip())
    if m:
        elem = parse_type(m.group(1), uniform)
        if elem.count != 1:
            raise LayoutError(f"nested arrays are not supported in Params (got {text!r})")
        count = int(m.group(2))
        if count < 1:
            raise LayoutError(f"array length must be >= 1 (got {text!r})")
        stride = _round_up(elem.align, elem.size)
        align = elem.align
        if uniform:
            if stride % 16:
                lanes = 4
                raise LayoutError(
                    f"{text!r} has a {stride}-byte element stride, but uniform arrays need a "
                    f"multiple of 16: write array<vec{lanes}<{elem.scalar}>, "
                    f"{-(-count * elem.lanes // lanes)}> and index it as [i / 4][i % 4]")
            align = _round_up(16, align)
        canon = f"array<{elem.text}, {count}>"
        return WgslType(canon, elem.scalar, elem.lanes, count, align, stride * count, stride)
    raise LayoutError(
        f"unsupported Params type {text!r} (use u32, i32, f32, vecN<u32|i32|f32> or "
        f"array<vecN<...>, N>)")


def _round_up(k: int, n: int) -> int:
    return -(-n // k) * k


@dataclass(frozen=True)
class FieldLayout:
    name: str
    type: WgslType
    offset: int


@dataclass(frozen=True)
class CppMember:
    """One member of the generated C++ struct (a field or explicit padding)."""

    name: str
    ctype: str
    extents: tuple[int, ...]  # array extents, () for a scalar
    is_padding: bool

    def declaration(self) -> str:
        return f"{self.ctype} {self.name}" + "".join(f"[{e}]" for e in self.extents) + ";"


@dataclass(frozen=True)
class StructLayout:
    name: str
    fields: tuple[FieldLayout, ...]
    align: int
    size: int
    cpp_members: tuple[CppMember, ...]

    def wgsl(self) -> str:
        body = "".join(f"  {f.name}: {f.type.text},\n" for f in self.fields)
        return f"struct {self.name} {{\n{body}}};"

    def pack(self, values: dict[str, Any]) -> bytes:
        """Packs field values (already converted to Python numbers) into uniform bytes."""
        buf = bytearray(self.size)
        for f in self.fields:
            flat = _flatten(values[f.name])
            if len(flat) != f.type.components:
                raise LayoutError(f"{self.name}.{f.name} needs {f.type.components} values "
                                  f"(got {len(flat)})")
            code = SCALARS[f.type.scalar][1]
            for i, v in enumerate(flat):
                elem, lane = divmod(i, f.type.lanes)
                at = f.offset + elem * f.type.stride + 4 * lane
                try:
                    struct.pack_into("<" + code, buf, at, v)
                except OverflowError:
                    if code != "f":
                        raise
                    # a finite value past float32's range: infinity of its sign, as the
                    # generated C++ (static_cast<float>) and torch's float32 math give
                    struct.pack_into("<f", buf, at, math.copysign(math.inf, v))
        return bytes(buf)


def _flatten(v: Any) -> list:
    if isinstance(v, (list, tuple)):
        return [x for item in v for x in _flatten(item)]
    return [v]


def layout_struct(name: str, fields: Sequence[tuple[str, str]], uniform: bool = True) -> StructLayout:
    """Lays out `fields` ((name, wgsl type) pairs, in order) as a WGSL struct."""
    if not fields:
        raise LayoutError(f"struct {name} has no fields")
    placed: list[FieldLayout] = []
    members: list[CppMember] = []
    offset = 0
    pad_index = 0

    def pad(nbytes: int) -> None:
        nonlocal pad_index
        if nbytes:
            members.append(CppMember(f"_pad{pad_index}", "uint32_t", (nbytes // 4,) if nbytes > 4 else (), True))
            pad_index += 1

    for fname, ftext in fields:
        t = parse_type(ftext, uniform)
        start = _round_up(t.align, offset)
        pad(start - offset)
        placed.append(FieldLayout(fname, t, start))
        ctype = SCALARS[t.scalar][0]
        if t.count > 1:
            # arrays of vec3 carry 4 bytes of padding per element
            extents = (t.count, t.stride // 4)
        elif t.lanes > 1:
            extents = (t.lanes,)
        else:
            extents = ()
        members.append(CppMember(fname, ctype, extents, False))
        offset = start + t.size
    align = max(f.type.align for f in placed)
    if uniform:
        align = _round_up(16, align)
    size = _round_up(align, offset)
    pad(size - offset)
    return StructLayout(name, tuple(placed), align, size, tuple(members))
