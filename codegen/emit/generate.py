"""`opgen generate` and `opgen check` without the command line: render every output of
the catalog, write what changed (all or nothing), or list what is stale."""

from __future__ import annotations

from codegen.emit import spec_api
from codegen.emit.render import GENERATED, render
from codegen.emit.writer import commit
from codegen.language.loader import load
from codegen.paths import REPO_ROOT, SPECS_DIR


def outputs() -> dict[str, str]:
    """Every output: generated/, the kernels' declaration blocks and docs/spec_api.md."""
    return {**render(load()), spec_api.PATH: spec_api.render()}


def orphans(rendered: dict[str, str]) -> list[str]:
    """Files under generated/ that no spec produces any more."""
    gen = REPO_ROOT / GENERATED
    if not gen.exists():
        return []
    existing = {str(p.relative_to(REPO_ROOT)) for p in gen.rglob("*") if p.is_file()}
    return sorted(existing - set(rendered))


def generate() -> tuple[dict[str, str], list[str]]:
    """Writes every output; returns them and the paths that changed."""
    rendered = outputs()
    changed = commit(REPO_ROOT, rendered, orphans(rendered),
                     [REPO_ROOT / GENERATED, SPECS_DIR, REPO_ROOT / "docs"])
    return rendered, changed


def drift(rendered: dict[str, str]) -> list[str]:
    problems = []
    for path, text in sorted(rendered.items()):
        target = REPO_ROOT / path
        if not target.exists():
            problems.append(f"missing: {path}")
        elif target.read_text() != text:
            problems.append(f"stale: {path}")
    return problems + [f"orphan: {p}" for p in orphans(rendered)]
