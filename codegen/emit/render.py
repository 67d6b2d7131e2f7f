"""Renders every output of the catalog in memory: synced shaders and generated/."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import jinja2

from codegen.emit import cpp, cpp_dispatch
from codegen.lower.wgsl_module import GENERATED, ShaderSyncError, modules
from codegen.lower.steps import lower
from codegen.language.dispatch import Dispatch
from codegen.language.loader import Catalog, SpecFileError
from codegen.paths import REPO_ROOT, rel
from codegen.language.schema import check_args, load_schemas

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
CLANG_FORMAT_STYLE = REPO_ROOT / ".clang-format"
FORMAT_CACHE = REPO_ROOT / ".opgen-cache"


class RenderError(Exception):
    pass


def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True)


def header_path(kernel) -> str:
    return f"ops/{kernel.folder.name}/{kernel.name}_wgsl.h"


def handler_path(bound) -> str:
    return f"ops/{bound.folder.name}/{bound.op.pascal}.cpp"


def clang_format(texts: dict[str, str]) -> dict[str, str]:
    """Formats C++ texts (keyed by file name) with the committed style.

    Results are cached under .opgen-cache/ keyed by the text, the style and the
    clang-format binary, so `opgen check` after `opgen generate` formats nothing; the
    misses are formatted by one clang-format process per CPU core, each taking a share of
    similar size."""
    exe = Path(sys.executable).parent / "clang-format"
    exe = exe if exe.exists() else Path(shutil.which("clang-format") or "")
    if not exe.is_file():
        raise RenderError("clang-format not found: pip install the version pinned in pyproject.toml")
    stat = exe.stat()
    salt = f"{exe}:{stat.st_size}:{stat.st_mtime_ns}\n".encode() + CLANG_FORMAT_STYLE.read_bytes()
    keys = {name: hashlib.sha256(salt + text.encode()).hexdigest() for name, text in texts.items()}
    out = {name: (FORMAT_CACHE / key).read_text() for name, key in keys.items()
           if (FORMAT_CACHE / key).exists()}
    misses = [name for name in texts if name not in out]
    if not misses:
        return out
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for i, name in enumerate(misses):
            paths[name] = Path(tmp) / f"{i}{Path(name).suffix}"
            paths[name].write_text(texts[name])
        procs = [subprocess.Popen([str(exe), f"--style=file:{CLANG_FORMAT_STYLE}", "-i",
                                   *(str(paths[n]) for n in share)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                 for share in _shares(misses, texts)]
        failed = [err for p in procs for err in [p.communicate()[1]] if p.returncode != 0]
        if failed:
            raise RenderError(f"clang-format failed: {failed[0].strip()}")
        FORMAT_CACHE.mkdir(exist_ok=True)
        for name in misses:
            out[name] = paths[name].read_text()
            staged = FORMAT_CACHE / f"{keys[name]}.{os.getpid()}.tmp"
            staged.write_text(out[name])
            os.replace(staged, FORMAT_CACHE / keys[name])  # concurrent runs write whole files
    return out


def _shares(names: list[str], texts: dict[str, str]) -> list[list[str]]:
    """`names` in one list per CPU core (at most one per name), largest texts first, each
    to the share with the fewest characters so far (clang-format's time follows size)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    shares: list[list[str]] = [[] for _ in range(min(cores or 1, len(names)))]
    sizes = [0] * len(shares)
    for name in sorted(names, key=lambda n: -len(texts[n])):
        i = sizes.index(min(sizes))
        shares[i].append(name)
        sizes[i] += len(texts[name])
    return shares


def _route_entry(route) -> dict:
    entry = {"kernel": route.kernel.name, "when": route.when or "otherwise",
             "grid": type(route.grid).__name__}
    if route.kernel.features:
        entry["features"] = list(route.kernel.features)
    return entry


def op_table(catalog: Catalog) -> dict:
    ops = []
    for b in catalog.ops:
        dispatches = []
        for d in b.dispatches:
            if isinstance(d.spec, Dispatch):
                dispatches.append({
                    "params": {k: p.type for k, p in d.spec.param_fields.items()},
                    "routes": [_route_entry(r.route) for r in d.routes]})
                if d.spec.foreach:
                    dispatches[-1]["foreach"] = d.spec.foreach
            else:
                dispatches.append({"copy": {"src": d.spec.src, "dst": d.spec.dst}})
            if d.spec.when:
                dispatches[-1]["when"] = d.spec.when
        ops.append({
            "op": b.op.name,
            "spec": rel(b.spec_file),
            "targets": list(b.op.targets),
            "kernels": [k.name for k in b.op.kernels()],
            "dispatches": dispatches,
            "guards": [f"{g.guard.arg} {g.guard.what}" for g in b.guards],
            "resize": b.op.resize,
            "cases": [c.name for c in b.op.cases],
        })
    return {"ops": ops}


def render(catalog: Catalog, ops: set[str] | None = None) -> dict[str, str]:
    """Every output, keyed by path relative to the repository root; with `ops` (op
    names), the C++ of the other ops' handlers and of kernels none of `ops` routes to is
    left out (neither rendered nor formatted: `opgen new` writes what its op adds)."""
    out: dict[str, str] = {}
    env = _env()
    schema_file = REPO_ROOT / GENERATED / "torch_schemas.json"
    targets = sorted(catalog.by_target())
    schemas = load_schemas(targets, schema_file)
    for b in catalog.ops:
        for t in b.op.targets:
            try:
                check_args(b.op, t, schemas["schemas"][t])
            except ValueError as e:
                raise SpecFileError(f"{rel(b.spec_file)}: op {b.op.name!r}: {e}") from None
    out[f"{GENERATED}/torch_schemas.json"] = json.dumps(schemas, indent=2) + "\n"

    try:
        kernel_modules = modules(catalog.ops)
    except ShaderSyncError as e:
        raise RenderError(str(e)) from None
    chosen = [b for b in catalog.ops if ops is None or b.op.name in ops]
    chosen_kernels = None if ops is None else {k.name for b in chosen for k in b.op.kernels()}
    cpp_texts: dict[str, str] = {}
    registry = []
    for name in sorted(kernel_modules):
        module = kernel_modules[name]
        kernel = module.kernel
        out[module.path] = module.text
        h = header_path(kernel)
        registry.append({"header": h, "source": cpp_dispatch.kernel_source(kernel)})
        if chosen_kernels is not None and name not in chosen_kernels:
            continue
        cpp_texts[f"{GENERATED}/{h}"] = env.get_template("kernel_wgsl.h.j2").render(
            wgsl_file=rel(kernel.path), module=module.path, sha256=hashlib.sha256(module.text.encode()).hexdigest(),
            pascal=kernel.pascal, source=module.text, wg=kernel.workgroup,
            features=",".join(kernel.features), runtime_checks=kernel.runtime_checks,
            bindings=module.bindings)

    sources = sorted(handler_path(b) for b in catalog.ops)
    for b in sorted(chosen, key=lambda b: b.op.name):
        includes = sorted(header_path(k) for k in b.op.kernels())
        ctx = cpp.handler_context(lower(b), rel(b.spec_file), includes)
        cpp_texts[f"{GENERATED}/{handler_path(b)}"] = env.get_template("handler.cpp.j2").render(
            **ctx)
    cpp_texts[f"{GENERATED}/shader_registry.cpp"] = env.get_template(
        "shader_registry.cpp.j2").render(kernels=registry)
    sources.append("shader_registry.cpp")
    out.update(clang_format(cpp_texts))
    out[f"{GENERATED}/webgpu_srcs.cmake"] = env.get_template("webgpu_srcs.cmake.j2").render(
        sources=sorted(sources))
    out[f"{GENERATED}/op_table.json"] = json.dumps(op_table(catalog), indent=2) + "\n"
    return out
