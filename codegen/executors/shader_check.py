"""Compiles every kernel on the available adapter and reports naga's errors at the
`.wgsl` file's own line and column (the harness compiles the file's exact text, so the
positions naga gives are the file's)."""

from __future__ import annotations

import re

from codegen.executors.wgpu_device import device
from codegen.spec.loader import Catalog, rel

_POSITION = re.compile(r"wgsl:(\d+):(\d+)")


def shader_errors(catalog: Catalog) -> list[str]:
    _, dev = device()
    errors = []
    for name, (kernel, path) in sorted(catalog.kernels.items()):
        try:
            dev.create_shader_module(code=path.read_text(), label=name)
        except Exception as e:  # wgpu raises GPUValidationError carrying naga's report
            text = str(e)
            where = _POSITION.search(text)
            line, col = (where.group(1), where.group(2)) if where else ("1", "1")
            summary = next((l.split("error:", 1)[-1].strip() for l in text.splitlines()
                            if "error" in l.lower() and "Caused by" not in l), text.strip())
            errors.append(f"{rel(path)}:{line}:{col}: kernel {name}: {summary}\n{_excerpt(text)}")
    return errors


def _excerpt(text: str) -> str:
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if "┌─" in l), None)
    return "\n".join(lines[start:start + 4]) if start is not None else ""
