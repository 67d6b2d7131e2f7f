"""Compiles every kernel's composed module and reports errors at the authored file's own
line and column: with naga on the wgpu adapter (`shader_errors`) and with Tint in
Chromium (`browser_shader_errors`), each on a device with every optional feature the
adapter offers; a module that needs a feature Chromium's device lacks (shader-f16 on
SwiftShader) is left out of Tint's run (`tint_compilable`). A position inside the spec's interface part of a module is reported in
the generated module (generated/ops/<folder>/<kernel>.wgsl). naga compiles the text with
the directives it rejects commented out, line for line (`wgpu_device.naga_source`), so
positions do not move. Tint is stricter in places (e.g. uniformity: a barrier after a
non-uniform early return), so a kernel that only naga accepts fails here."""

from __future__ import annotations

import re

from codegen.executors import browser_device
from codegen.executors.wgpu_device import COPY_KERNEL, device, naga_source
from codegen.language.loader import Catalog
from codegen.lower.wgsl_module import Module, Segment, modules
from codegen.paths import REPO_ROOT

_POSITION = re.compile(r"wgsl:(\d+):(\d+)")


def catalog_modules(catalog: Catalog) -> list[Module]:
    return [m for _, m in sorted(modules(catalog.ops).items())]


def _where(module: Module, line: int, col: int) -> str:
    path, at = module.locate(line)
    return f"{path}:{at}:{col}"


def shader_errors(mods: list[Module]) -> list[str]:
    """naga's errors, one per kernel that fails."""
    _, dev = device()
    errors = []
    for m in mods:
        try:
            dev.create_shader_module(code=naga_source(m.text), label=m.kernel.name)
        except Exception as e:  # wgpu raises GPUValidationError carrying naga's report
            text = str(e)
            found = _POSITION.search(text)
            line, col = (int(found.group(1)), int(found.group(2))) if found else (1, 1)
            summary = next((l.split("error:", 1)[-1].strip() for l in text.splitlines()
                            if "error" in l.lower() and "Caused by" not in l), text.strip())
            errors.append(f"{_where(m, line, col)}: kernel {m.kernel.name} (naga): {summary}\n"
                          f"{_excerpt(text)}")
    return errors


def _excerpt(text: str) -> str:
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if "┌─" in l), None)
    return "\n".join(lines[start:start + 4]) if start is not None else ""


def copy_module() -> Module:
    """The runtime's own flat-copy kernel: a complete module written by hand."""
    text = (REPO_ROOT / COPY_KERNEL).read_text()

    class CopyKernel:
        name, entry, overrides = "copy_words", "main", {}

    return Module(CopyKernel, "copy", text, (Segment(1, text.count("\n") + 1, COPY_KERNEL),),
                  (), ())


def tint_compilable(mods: list[Module]) -> tuple[list[Module], list[Module]]:
    """(the modules Chromium's device can compile, those needing features it lacks)."""
    available = set(browser_device.device().adapter_info()["features"])
    ok = [m for m in mods if set(getattr(m.kernel, "features", ())) <= available]
    return ok, [m for m in mods if m not in ok]


def browser_shader_errors(mods: list[Module]) -> list[str]:
    """Tint's errors (and pipeline-creation errors) for every module and the runtime's
    copy kernel, compiled in Chromium, with overrides at their declared defaults; modules
    needing features the device lacks are not compiled (`tint_compilable`)."""
    mods = [*tint_compilable(mods)[0], copy_module()]
    results = browser_device.device().compile([
        {"name": m.kernel.name, "code": m.text, "entry": m.kernel.entry,
         "overrides": {n: o.default for n, o in m.kernel.overrides.items()}} for m in mods])
    errors = []
    for m, r in zip(mods, results):
        found = [e for e in r["messages"] if e["type"] == "error"]
        errors += [f"{_where(m, e['lineNum'], e['linePos'])}: kernel {m.kernel.name} (Tint): "
                   f"{e['message']}" for e in found]
        if r["error"] and not found:  # pipeline creation (entry point, overrides, limits)
            errors.append(f"{m.path if m.op != 'copy' else COPY_KERNEL}: kernel "
                          f"{m.kernel.name} entry {m.kernel.entry} (Tint): {r['error'].strip()}")
    return errors
