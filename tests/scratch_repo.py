"""A scratch copy of the toolkit for tests that edit specs and run `opgen` on them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def copy_repo(dst: Path) -> Path:
    """The toolkit, its outputs and the runtime sources under `dst` (`opgen` run there
    imports that copy)."""
    dst.mkdir()
    for name in ("codegen", "generated", "cpp_runtime"):
        shutil.copytree(ROOT / name, dst / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / ".clang-format", dst / ".clang-format")
    (dst / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "spec_api.md", dst / "docs" / "spec_api.md")  # opgen's too
    # clang-format's results are keyed by their input text and style (codegen/emit/render.py):
    # the copies share the toolkit's, so a copy formats only the C++ its edits change
    (ROOT / ".opgen-cache").mkdir(exist_ok=True)
    (dst / ".opgen-cache").symlink_to(ROOT / ".opgen-cache", target_is_directory=True)
    return dst


def opgen(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "codegen", *args], cwd=repo,
                          env=dict(os.environ, XDG_RUNTIME_DIR="/tmp"), capture_output=True,
                          text=True)


def snapshot(repo: Path, *bases: str) -> dict[str, bytes]:
    """Every generated file and spec file of `repo` (or those under `bases`), by relative
    path."""
    files = {}
    for base in bases or ("generated", "codegen/specs"):
        for p in sorted((repo / base).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts:
                files[str(p.relative_to(repo))] = p.read_bytes()
    return files
