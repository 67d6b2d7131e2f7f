"""Each kernel's complete WGSL module, composed at generate time from the spec and the
authored text.

An authored `.wgsl` file holds only what its author writes: the kernel body, or shared
helper functions. `compose` puts a kernel's module together in a fixed order:

1. the enable directives of the kernel's features;
2. the interface the op spec declares: the Params struct (binding 0) and the storage
   bindings in ABI order, the kernel's override constants, its workgroup size, the
   variant's constants and type aliases, the accessors of the bindings that view float
   tensors (codegen.language.floats), the grid's index helpers;
3. the helper files (those the views' accessors call, the dispatch's, then the kernel's
   own), then the kernel's body file.

The module is written to `generated/ops/<folder>/<kernel>.wgsl` and embedded in the
kernel's `_wgsl.h`, with its binding table (`Module.bindings`). `Module.locate` maps a
line of the module back to the authored file and line it came from, so compiler errors
point where the author can fix them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from codegen.graph.dtypes import WGSL_ELEM
from codegen.language.args import Tensor, TensorList
from codegen.language.bind import BoundDispatch, BoundOp
from codegen.language.checked import SpecError
from codegen.language.dispatch import Dispatch, Kernel
from codegen.language.features import enable_lines
from codegen.language.floats import FLOATS
from codegen.language.grids import GRID_KINDS
from codegen.language.layout import parse_type
from codegen.paths import SPECS_DIR, kernel_module, rel

GENERATED = "generated"
# what authored files held before modules were composed; a file that still has them
# gets told to drop them
_OLD_MARKERS = ("// @opgen-begin declarations", "// @opgen-end declarations")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ENABLE = re.compile(r"^\s*enable\s+\w", re.M)


class ShaderSyncError(ValueError):
    """A kernel's module cannot be composed (a missing file, a conflicting interface...)."""


@dataclass(frozen=True)
class BindingEntry:
    """One entry of a kernel's bind group, in binding-index order (the ABI).

    `dummy_bytes` is what every executor binds when the argument is absent (an optional
    tensor) or the kernel never reads it: one element of the array, in whole 16-byte
    units (tensor buffers are whole 16-byte units too)."""

    name: str
    kind: str  # uniform | read | read_write
    elem: str  # WGSL type of one element (the Params struct for the uniform)
    stride: int  # bytes per element
    read: bool  # whether the kernel's helpers or body name it

    @property
    def dummy_bytes(self) -> int:
        return dummy_bytes(self.stride)


def dummy_bytes(stride: int) -> int:
    """The one dummy-binding rule: one element of `stride` bytes in whole 16-byte units."""
    return -(-max(stride, 4) // 16) * 16


def storage_dummy_bytes(bound: BoundOp, dispatch: BoundDispatch, kernel: Kernel) -> list[int]:
    """The dummy size of each storage binding of `dispatch` as `kernel` declares it, in
    order (the Python executors bind these where the generated C++ binds
    Binding::dummy())."""
    return [dummy_bytes(parse_type(binding_elem(bound, b, kernel), uniform=False).stride)
            for b in dispatch.spec.bindings]


@dataclass(frozen=True)
class Segment:
    """Lines `first`..`first + count - 1` of the module (1-based) are lines
    `source_first`.. of `source` (repository-relative; None: generated lines)."""

    first: int
    count: int
    source: str | None
    source_first: int = 1


@dataclass(frozen=True)
class Module:
    kernel: Kernel
    op: str  # the op whose spec declared the interface
    text: str
    segments: tuple[Segment, ...]
    bindings: tuple[BindingEntry, ...]
    interface: tuple[str, ...]  # the declarations from the spec

    @property
    def path(self) -> str:
        return rel(kernel_module(self.kernel))

    def locate(self, line: int) -> tuple[str, int]:
        """(file, line) that line `line` of the module came from."""
        for s in self.segments:
            if s.first <= line < s.first + s.count and s.source is not None:
                return s.source, s.source_first + line - s.first
        return self.path, line


def authored_text(path: Path, op: str) -> str:
    """An authored file's text, checked to hold authored text only."""
    if not path.is_file():
        raise ShaderSyncError(f"{rel(path)}: a WGSL file of op {op!r} does not exist; "
                              f"create it or drop it from the spec")
    text = path.read_text()
    if any(m in text for m in _OLD_MARKERS):
        raise ShaderSyncError(
            f"{rel(path)}: holds a generated declaration block; kernel files hold only the "
            f"body and helpers now (opgen generate composes the rest): delete the lines from "
            f"'{_OLD_MARKERS[0]}' to '{_OLD_MARKERS[1]}'")
    if _ENABLE.search(_COMMENT.sub("", text)):
        raise ShaderSyncError(f"{rel(path)}: has an 'enable' directive; declare the kernel's "
                              f"features=(...) in the spec and opgen generate enables them")
    if ")wgsl\"" in text:
        raise ShaderSyncError(f"{rel(path)} contains ')wgsl\"', which would end the raw "
                              f"string of its header")
    return text


def binding_elem(bound: BoundOp, bind, kernel: Kernel) -> str:
    if bind.view:
        return FLOATS[kernel.floats].elem(bind.view, bind.write)
    if bind.elem:
        return parse_type(bind.elem, uniform=False).text
    tensors = {a.name: a for a in bound.op.args if isinstance(a, (Tensor, TensorList))}
    tensors.update({o.name: o for o in bound.op.outputs})
    tensors.update({sc.name: sc for sc in bound.op.scratch})
    return WGSL_ELEM[tensors[bind.arg].dtypes[0]]


def _names(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]\w*", _COMMENT.sub("", text)))


def _interface(bound: BoundOp, dispatch: BoundDispatch, kernel: Kernel, used: set[str]
               ) -> tuple[list[str], list[BindingEntry]]:
    spec: Dispatch = dispatch.spec
    lines, table = [], []
    if dispatch.layout:
        layout = dispatch.layout
        lines.append(layout.wgsl().replace(f"struct {layout.name} ", "struct Params "))
        lines.append("@group(0) @binding(0) var<uniform> params: Params;")
        table.append(BindingEntry("params", "uniform", "Params", layout.size, "params" in used))
    floats = FLOATS[kernel.floats]
    for b in spec.bindings:
        elem = binding_elem(bound, b, kernel)
        access = "read_write" if b.write else "read"
        lines.append(f"@group(0) @binding({len(table)}) var<storage, {access}> {b.name}: "
                     f"array<{elem}>;")
        reads = b.name in used or bool(b.view and {f"{b.name}_load", f"{b.name}_store",
                                                    f"{b.name}_load_raw"} & used)
        table.append(BindingEntry(b.name, access, elem, parse_type(elem, uniform=False).stride,
                                  reads))
    for name, ov in kernel.overrides.items():
        lines.append(f"override {name}: {ov.type} = {ov.wgsl_default()};")
    for axis, size in zip("XYZ", kernel.workgroup):
        lines.append(f"const WORKGROUP_SIZE_{axis}: u32 = {size}u;")
    lines += [f"const {name} = {value};" for name, value in kernel.consts.items()]
    lines += [f"alias {name} = {value};" for name, value in kernel.aliases.items()]
    for b in spec.bindings:
        if b.view:
            lines += floats.accessors(b.name, b.view, b.write)
        if b.raw:
            lines += floats.raw_accessors(b.name)
    kernel_grids = [r.route.grid for r in dispatch.routes if r.route.kernel.name == kernel.name]
    for kind in GRID_KINDS:
        grids = [g for g in kernel_grids if isinstance(g, kind)]
        if grids:
            try:
                lines += kind.wgsl_helpers(grids, f"kernel {kernel.name!r} of op {bound.op.name!r}")
            except SpecError as e:
                raise ShaderSyncError(str(e)) from None
    return lines, table


def compose(bound: BoundOp, dispatch: BoundDispatch, kernel: Kernel) -> Module:
    """`kernel`'s module as `dispatch` of `bound` uses it."""
    views = any(b.view for b in dispatch.spec.bindings)
    files = [SPECS_DIR / "common" / h for h in FLOATS[kernel.floats].helpers if views]
    files += [kernel.folder / h for h in (*dispatch.spec.helpers, *kernel.helpers)]
    files.append(kernel.path)
    # a helper named twice (a view's, and the kernel's own) is composed once
    files = list({f.resolve(): f for f in reversed(files)}.values())[::-1]
    texts = [(rel(f), authored_text(f, bound.op.name)) for f in files]
    used = set().union(*(_names(t) for _, t in texts))
    interface, table = _interface(bound, dispatch, kernel, used)
    head = [f"// @generated by opgen from {rel(kernel.path)} - DO NOT EDIT.",
            *enable_lines(kernel.features),
            f"// The interface of kernel {kernel.name}, from the spec of op {bound.op.name} "
            f"({rel(bound.spec_file)}).", *interface]
    lines = "\n".join(head).split("\n")
    segments = [Segment(1, len(lines), None)]
    for source, text in texts:
        lines.append(f"// {source}")
        skipped = len(text) - len(text.lstrip("\n"))  # blank lines above the first line
        body = text.strip("\n").split("\n")
        segments.append(Segment(len(lines) + 1, len(body), source, 1 + skipped))
        lines += body
    return Module(kernel, bound.op.name, "\n".join(lines) + "\n", tuple(segments),
                  tuple(table), tuple(interface))


def _interface_of(m: Module) -> tuple:
    return m.interface, m.bindings, tuple(s.source for s in m.segments)


def modules(ops: list[BoundOp]) -> dict[str, Module]:
    """kernel name -> its module; one module per kernel, whichever ops route to it."""
    out: dict[str, Module] = {}
    for bound in ops:
        for d in bound.dispatches:
            if not isinstance(d.spec, Dispatch):
                continue
            for r in d.routes:
                k = r.route.kernel
                m = compose(bound, d, k)
                first = out.get(k.name)
                if first is not None and _interface_of(first) != _interface_of(m):
                    raise ShaderSyncError(
                        f"kernel {k.name!r} is used by ops {first.op!r} and {bound.op.name!r} "
                        f"with different params/bindings; a shared kernel needs one interface")
                out.setdefault(k.name, m)
    return out
