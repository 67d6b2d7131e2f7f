"""The upstream coverage table: which operators ExecuTorch's own WebGPU backend registers,
which of them our specs serve, and the difference (docs/coverage.md).

    python tools/upstream_coverage.py            # write docs/coverage.md
    python tools/upstream_coverage.py --check    # exit 1 when docs/coverage.md is stale
    python tools/upstream_coverage.py --refresh CHECKOUT   # re-read upstream's registrations

Upstream's list is data (tests/data/upstream_webgpu_targets.json): every
`WEBGPU_REGISTER_OP(<name>, ...)` call under backends/webgpu/runtime/ops/ of an
ExecuTorch checkout, outside comments, with the file that makes it. `--refresh` rewrites
that file from a checkout (its commit recorded); nothing else reads upstream's sources.
Ours is the op table `opgen generate` writes (generated/op_table.json).

Upstream's names are the names a VK00 graph holds, so an operator the serializer writes
without a namespace is matched as our loader reads it: `x.y` is `aten.x.y` or a custom
namespace's `ns.x.y` (llama's update_cache, sdpa_with_kv_cache), and a bare `add` (a
Python SymInt operator) is `_operator.add.default`.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "upstream_webgpu_targets.json"
OP_TABLE = ROOT / "generated" / "op_table.json"
DOC = ROOT / "docs" / "coverage.md"
OPS_DIR = "backends/webgpu/runtime/ops"
REGISTER = re.compile(r"WEBGPU_REGISTER_OP\(\s*([A-Za-z0-9_.]+)\s*,")
PYTHON_OPERATOR_NAMESPACES = ("_operator",)
# targets the VK00 loader serves itself, without a spec
LOADER = "cpp_runtime/executorch/vk_graph.cpp"
LOADER_TARGETS = {"et_vk.prepack.default": f"(the loader, {LOADER})"}


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def read_registrations(checkout: Path) -> list[dict]:
    """Every WEBGPU_REGISTER_OP call of an ExecuTorch checkout: [{name, file}], by name."""
    found: dict[str, str] = {}
    for path in sorted((checkout / OPS_DIR).rglob("*.cpp")):
        for name in REGISTER.findall(_strip_comments(path.read_text(errors="replace"))):
            found.setdefault(name, str(path.relative_to(checkout)))
    if not found:
        raise SystemExit(f"upstream_coverage: no WEBGPU_REGISTER_OP calls under "
                         f"{checkout / OPS_DIR}")
    return [{"name": n, "file": found[n]} for n in sorted(found)]


def refresh(checkout: Path) -> None:
    commit = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    data = {
        "about": "Operators ExecuTorch's WebGPU backend registers: every WEBGPU_REGISTER_OP "
                 f"call under {OPS_DIR}/ outside comments, as `python "
                 "tools/upstream_coverage.py --refresh <checkout>` reads them. Names are "
                 "the names a VK00 graph holds.",
        "repository": "pytorch/executorch",
        "commit": commit,
        "targets": read_registrations(checkout),
    }
    DATA.write_text(json.dumps(data, indent=2) + "\n")
    print(f"wrote {DATA.relative_to(ROOT)}: {len(data['targets'])} targets at {commit}")


def upstream() -> dict:
    return json.loads(DATA.read_text())


def our_targets() -> dict[str, str]:
    """Every target the op table serves -> the op (spec) that serves it; and the loader's."""
    table = json.loads(OP_TABLE.read_text())
    return {**{t: op["op"] for op in table["ops"] for t in op["targets"]}, **LOADER_TARGETS}


def graph_names(target: str) -> set[str]:
    """The names under which a VK00 graph may hold an operator we serve as `target`."""
    ns, op, overload = target.split(".")
    names = {target}
    if ns in PYTHON_OPERATOR_NAMESPACES:
        names.add(op)
    else:
        names.add(f"{op}.{overload}")  # aten's bare names, llama's namespace-less ones
    return names


def served_by(name: str, ours: dict[str, str]) -> str | None:
    """Our target that serves upstream's graph name `name`, or None."""
    for target in sorted(ours):
        if name in graph_names(target):
            return target
    return None


def coverage() -> tuple[list[tuple[str, str, str | None]], list[str]]:
    """([(upstream name, its file, our target or None)], our targets upstream lacks)."""
    ours = our_targets()
    rows = [(t["name"], t["file"], served_by(t["name"], ours)) for t in upstream()["targets"]]
    matched = {r[2] for r in rows if r[2]}
    return rows, sorted(set(ours) - matched)


def missing() -> list[str]:
    """Upstream's names no spec of ours serves."""
    return [name for name, _file, target in coverage()[0] if target is None]


def render() -> str:
    data = upstream()
    ours = our_targets()
    rows, extra = coverage()
    served = [r for r in rows if r[2]]
    absent = [r for r in rows if not r[2]]
    lines = [
        "# Coverage against upstream's WebGPU backend",
        "",
        "Generated by `python tools/upstream_coverage.py` from the op table "
        "(`generated/op_table.json`) and upstream's registrations "
        "(`tests/data/upstream_webgpu_targets.json`: every `WEBGPU_REGISTER_OP` of "
        f"{data['repository']} at `{data['commit'][:10]}`); do not edit by hand. "
        "`tests/test_upstream_coverage.py` fails when this page is stale or when a target "
        "served here loses its spec.",
        "",
        f"- upstream registers **{len(rows)}** operators; we serve **{len(served)}** of them",
        f"- **missing: {len(absent)}**",
        f"- we serve **{len(extra)}** operators upstream does not register "
        f"({len(ours)} targets in all)",
        "",
        "Names are as a VK00 graph holds them: the serializer writes some operators without a "
        "namespace (`update_cache.default`, `sym_size.int`, a SymInt `add`), which our loader "
        "reads as `aten.x.y`, a custom namespace's `ns.x.y`, or `_operator.add.default`.",
        "",
        "## Missing (upstream registers, no spec serves)",
        "",
        *(["| upstream operator | upstream file |", "|---|---|",
           *[f"| `{n}` | `{f}` |" for n, f, _t in absent]] if absent else ["None."]),
        "",
        "## Served (upstream registers, a spec serves)",
        "",
        "| upstream operator | our target | spec |",
        "|---|---|---|",
        *[f"| `{n}` | `{t}` | `{ours[t]}` |" for n, _f, t in served],
        "",
        "## Ours only (a spec serves, upstream does not register)",
        "",
        "| our target | spec |",
        "|---|---|",
        *[f"| `{t}` | `{ours[t]}` |" for t in extra],
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when docs/coverage.md is not what this writes")
    parser.add_argument("--refresh", metavar="CHECKOUT", type=Path,
                        help="re-read upstream's registrations from an ExecuTorch checkout")
    args = parser.parse_args(argv)
    if args.refresh:
        refresh(args.refresh)
    text = render()
    if args.check:
        if not DOC.exists() or DOC.read_text() != text:
            print(f"{DOC.relative_to(ROOT)} is stale: run python tools/upstream_coverage.py",
                  file=sys.stderr)
            return 1
        print(f"{DOC.relative_to(ROOT)} is current: {len(missing())} missing")
        return 0
    DOC.write_text(text)
    print(f"wrote {DOC.relative_to(ROOT)}: {len(missing())} of "
          f"{len(upstream()['targets'])} upstream operators missing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
