"""The declaration block of each kernel's .wgsl file, derived from the spec.

Everything between the two marker lines is rewritten by `opgen generate` (the enable
directives of the kernel's features, Params struct, bindings in ABI order, the kernel's
override constants, workgroup size, for 1-D grids the index helper, then the helpers
files of its dispatch and its own); the author owns the rest of the file, which stays a
complete, valid WGSL module.
"""

from __future__ import annotations

from pathlib import Path

from codegen.language.args import Tensor, TensorList
from codegen.language.bind import BoundDispatch, BoundOp
from codegen.language.checked import SpecError
from codegen.language.dispatch import Dispatch, Kernel
from codegen.graph.dtypes import WGSL_ELEM
from codegen.language.features import enable_lines
from codegen.language.grids import GRID_KINDS
from codegen.language.layout import parse_type

BEGIN = "// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit"
END = "// @opgen-end declarations"


class ShaderSyncError(ValueError):
    pass


def binding_elem(bound: BoundOp, bind) -> str:
    if bind.elem:
        return parse_type(bind.elem, uniform=False).text
    tensors = {a.name: a for a in bound.op.args if isinstance(a, (Tensor, TensorList))}
    tensors.update({o.name: o for o in bound.op.outputs})
    tensors.update({sc.name: sc for sc in bound.op.scratch})
    return WGSL_ELEM[tensors[bind.arg].dtypes[0]]


def declarations(bound: BoundOp, dispatch: BoundDispatch, kernel: Kernel) -> str:
    """The text between the markers for `kernel` as used by `dispatch`."""
    spec: Dispatch = dispatch.spec
    lines = enable_lines(kernel.features)  # directives come before any declaration
    slot = 0
    if dispatch.layout:
        lines.append(dispatch.layout.wgsl().replace(f"struct {dispatch.layout.name} ",
                                                    "struct Params "))
        lines.append("@group(0) @binding(0) var<uniform> params: Params;")
        slot = 1
    for i, b in enumerate(spec.bindings):
        access = "read_write" if b.write else "read"
        lines.append(f"@group(0) @binding({slot + i}) var<storage, {access}> {b.name}: "
                     f"array<{binding_elem(bound, b)}>;")
    for name, ov in kernel.overrides.items():
        lines.append(f"override {name}: {ov.type} = {ov.wgsl_default()};")
    x, y, z = kernel.workgroup
    lines.append(f"const WORKGROUP_SIZE_X: u32 = {x}u;")
    lines.append(f"const WORKGROUP_SIZE_Y: u32 = {y}u;")
    lines.append(f"const WORKGROUP_SIZE_Z: u32 = {z}u;")
    kernel_grids = [r.route.grid for r in dispatch.routes if r.route.kernel.name == kernel.name]
    for kind in GRID_KINDS:
        grids = [g for g in kernel_grids if isinstance(g, kind)]
        if grids:
            try:
                lines += kind.wgsl_helpers(grids, f"kernel {kernel.name!r} of op {bound.op.name!r}")
            except SpecError as e:
                raise ShaderSyncError(str(e)) from None
    for helpers in (*spec.helpers, *kernel.helpers):
        path = kernel.folder / helpers
        if not path.is_file():
            raise ShaderSyncError(f"{path}: a helpers file of op {bound.op.name!r} does not "
                                  f"exist; create it or drop it from helpers=")
        lines.append(f"// Shared helpers ({helpers}).")
        lines.append(path.read_text().strip("\n"))
    return "\n".join(lines)


def kernel_blocks(ops: list[BoundOp]) -> dict[str, tuple[Kernel, str]]:
    """kernel name -> (kernel, declaration block); one block per kernel, whoever uses it."""
    blocks: dict[str, tuple[Kernel, str, str]] = {}
    for bound in ops:
        for d in bound.dispatches:
            if not isinstance(d.spec, Dispatch):
                continue
            for r in d.routes:
                k = r.route.kernel
                text = declarations(bound, d, k)
                if k.name in blocks and blocks[k.name][1] != text:
                    raise ShaderSyncError(
                        f"kernel {k.name!r} is used by ops {blocks[k.name][2]!r} and "
                        f"{bound.op.name!r} with different params/bindings; a shared kernel needs "
                        f"one interface")
                blocks[k.name] = (k, text, bound.op.name)
    return {name: (k, text) for name, (k, text, _) in blocks.items()}


def with_block(path: Path, source: str, block: str) -> str:
    """`source` with its declaration block replaced by `block`."""
    lines = source.split("\n")
    try:
        begin = next(i for i, l in enumerate(lines) if l.strip() == BEGIN)
        end = next(i for i, l in enumerate(lines) if l.strip() == END and i > begin)
    except StopIteration:
        raise ShaderSyncError(
            f"{path}: missing declaration markers; put these two lines where the spec's "
            f"declarations belong:\n{BEGIN}\n{END}") from None
    if block.startswith("enable "):
        code = [l for l in lines[:begin] if l.strip() and not l.strip().startswith("//")]
        if code:
            raise ShaderSyncError(
                f"{path}: {code[0].strip()!r} comes before the declaration block, which starts "
                f"with the kernel's enable directives; WGSL wants directives before any "
                f"declaration: move it below the block")
    return "\n".join(lines[:begin + 1] + block.split("\n") + lines[end:])
