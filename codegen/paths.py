"""Where things are: the repository, the op specs, the CMake build's programs."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SPECS_DIR = REPO_ROOT / "codegen" / "specs"


def built_executable(name: str, env_var: str, how_to_build: str) -> Path:
    """A program of the CMake build (build/<name>), or the one `env_var` names."""
    path = Path(os.environ.get(env_var, REPO_ROOT / "build" / name))
    if not path.exists():
        raise FileNotFoundError(f"{name} not found at {path}: {how_to_build} (or set {env_var})")
    return path


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def kernel_module(kernel) -> Path:
    """The complete WGSL module `opgen generate` composes for `kernel` (a language
    Kernel): what every executor compiles."""
    return REPO_ROOT / "generated" / "ops" / kernel.folder.name / f"{kernel.name}.wgsl"
