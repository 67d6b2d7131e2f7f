"""Finds, imports and validates every op spec under `codegen/specs/`."""

from __future__ import annotations

import importlib.util
import traceback
from dataclasses import dataclass
from pathlib import Path

from codegen.language.bind import BoundOp, bind
from codegen.language.checked import SpecError
from codegen.language.dispatch import Kernel
from codegen.language.op import Op
from codegen.paths import SPECS_DIR, rel



class SpecFileError(Exception):
    """A spec problem, located: '<spec file>: <field>: <what is wrong and what to write>'."""


@dataclass
class Catalog:
    """Every op of every spec file, validated together."""

    ops: list[BoundOp]
    kernels: dict[str, tuple[Kernel, Path]]  # kernel name -> (kernel, its .wgsl file)

    def by_target(self) -> dict[str, BoundOp]:
        return {t: b for b in self.ops for t in b.op.targets}

    def op(self, name: str) -> BoundOp:
        for b in self.ops:
            if b.op.name == name:
                return b
        raise KeyError(name)


def spec_files(specs_dir: Path = SPECS_DIR) -> list[Path]:
    return sorted(p for p in specs_dir.glob("*/*.py") if not p.name.startswith("_"))


def _import(path: Path) -> list[Op]:
    name = "opgen_spec_" + "_".join(path.relative_to(path.parents[1]).with_suffix("").parts)
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except SpecError as e:
        raise SpecFileError(f"{rel(path)}:{_line_in(path, e)}: {e}") from None
    except SyntaxError as e:  # its text repeats the file and line: say them once
        column = f":{e.offset}" if e.offset and e.lineno else ""
        raise SpecFileError(f"{rel(path)}:{_line_in(path, e)}{column}: SyntaxError: {e.msg}"
                            + (f"\n    {e.text.rstrip()}" if e.text else "")) from None
    except Exception as e:  # a Python mistake in the spec file: say where, briefly
        raise SpecFileError(f"{rel(path)}:{_line_in(path, e)}: {type(e).__name__}: {e}") from None
    ops = getattr(module, "OPS", None)
    if not isinstance(ops, (list, tuple)) or not ops or not all(isinstance(o, Op) for o in ops):
        raise SpecFileError(f"{rel(path)}: OPS must be a non-empty list of Op(...) "
                            f"(got {type(ops).__name__}); end the file with OPS = [my_op]")
    return list(ops)


def _line_in(path: Path, exc: BaseException) -> int:
    """The line of `path` the exception points at: a SyntaxError's own line (it has no
    frame in the file), else the innermost frame in the file."""
    if isinstance(exc, SyntaxError) and exc.filename and Path(exc.filename) == path:
        return exc.lineno or 1
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
    return frames[-1].lineno if frames else 1


def load(specs_dir: Path = SPECS_DIR) -> Catalog:
    ops: list[BoundOp] = []
    owner: dict[str, Path] = {}
    kernels: dict[str, tuple[Kernel, Path]] = {}
    names: dict[str, Path] = {}
    for path in spec_files(specs_dir):
        for op in _import(path):
            if op.name in names:
                raise SpecFileError(f"{rel(path)}: op name {op.name!r} is already used by "
                                    f"{rel(names[op.name])}; op names must be unique")
            names[op.name] = path
            for t in op.targets:
                if t in owner:
                    raise SpecFileError(
                        f"{rel(path)}: op {op.name!r} claims target {t!r}, already claimed by "
                        f"{rel(owner[t])}; one target has exactly one spec (route inside it)")
                owner[t] = path
            for k in op.kernels():
                wgsl = k.path
                if k.name in kernels and kernels[k.name] != (k, wgsl):
                    raise SpecFileError(
                        f"{rel(path)}: kernel {k.name!r} is declared again differently (first in "
                        f"{rel(kernels[k.name][1])}); declare a kernel once and import it")
                if not wgsl.exists():
                    raise SpecFileError(f"{rel(path)}: kernel {k.name!r}: file {rel(wgsl)} does "
                                        f"not exist; create it (opgen new scaffolds one)")
                kernels[k.name] = (k, wgsl)
            try:  # after the kernel files: bind's checks may name the op's kernels
                bound = bind(op, path)
            except SpecError as e:
                raise SpecFileError(f"{rel(path)}: op {op.name!r}: {e}") from None
            ops.append(bound)
    return Catalog(ops, kernels)
