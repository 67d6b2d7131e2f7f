"""Compiles every kernel and reports errors at the `.wgsl` file's own line and column:
with naga on the wgpu adapter (`shader_errors`) and with Tint in Chromium
(`browser_shader_errors`), each on a device with every optional feature the adapter
offers. Both compile the file's text (naga with the directives it rejects commented out,
line for line: `wgpu_device.naga_source`), so the positions they give are the file's. Tint is stricter in places (e.g. uniformity: a barrier after a
non-uniform early return), so a kernel that only naga accepts fails here."""

from __future__ import annotations

import re
from pathlib import Path

from codegen.executors import browser_device
from codegen.executors.wgpu_device import COPY_KERNEL, device, naga_source
from codegen.language.loader import Catalog
from codegen.paths import REPO_ROOT, rel

_POSITION = re.compile(r"wgsl:(\d+):(\d+)")


def shader_errors(catalog: Catalog) -> list[str]:
    _, dev = device()
    errors = []
    for name, (kernel, path) in sorted(catalog.kernels.items()):
        try:
            dev.create_shader_module(code=naga_source(path.read_text()), label=name)
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


def shipped_kernels(catalog: Catalog) -> list[tuple[str, dict]]:
    """(file, kernel as the page compiles it) for every kernel file and entry point, with
    its overrides at their declared defaults, plus the runtime's copy kernel."""
    seen: dict[tuple, tuple[str, dict]] = {}
    for kernel, path in catalog.kernels.values():
        seen.setdefault((path, kernel.entry), (rel(path), {
            "name": kernel.name, "code": path.read_text(), "entry": kernel.entry,
            "overrides": {n: o.default for n, o in kernel.overrides.items()}}))
    copy = browser_device.copy_kernel()
    return list(seen.values()) + [(str(REPO_ROOT / COPY_KERNEL), copy)]


def browser_shader_errors(catalog: Catalog) -> list[str]:
    """Tint's errors (and pipeline-creation errors) for every kernel, compiled in Chromium."""
    kernels = shipped_kernels(catalog)
    results = browser_device.device().compile([k for _, k in kernels])
    errors = []
    for (path, k), r in zip(kernels, results):
        found = [m for m in r["messages"] if m["type"] == "error"]
        errors += [f"{rel(Path(path))}:{m['lineNum']}:{m['linePos']}: kernel {k['name']} (Tint): "
                   f"{m['message']}" for m in found]
        if r["error"] and not found:  # pipeline creation (entry point, overrides, limits)
            errors.append(f"{rel(Path(path))}: kernel {k['name']} entry {k['entry']} (Tint): "
                          f"{r['error'].strip()}")
    return errors
