"""Where things are: the repository, the op specs, the CMake build's programs (checked
against generated/ by their build stamp)."""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SPECS_DIR = REPO_ROOT / "codegen" / "specs"
GENERATED_DIR = REPO_ROOT / "generated"


class StaleBuildError(RuntimeError):
    """A runner of the CMake build was compiled from other generated sources than those
    in generated/ now (or before build stamps): it would run old handlers and kernels."""


def built_executable(name: str, env_var: str, how_to_build: str) -> Path:
    """A program of the CMake build (build/<name>), or the one `env_var` names, refused
    (StaleBuildError) when its build stamp is not that of generated/ now."""
    path = Path(os.environ.get(env_var, REPO_ROOT / "build" / name))
    if not path.exists():
        raise FileNotFoundError(f"{name} not found at {path}: {how_to_build} (or set {env_var})")
    built = _runner_stamp(str(path), path.stat().st_mtime_ns)
    if built != generated_stamp():
        what = (f"built from older generated sources than {rel(GENERATED_DIR)}/ (its build "
                f"stamp {built[:12]}, generated/'s {generated_stamp()[:12]})" if built else
                "built before build stamps (it has no --build-stamp)")
        raise StaleBuildError(f"{name} at {path} was {what}: it would run the old handlers "
                              f"and kernels; rebuild it with `cmake --build {path.parent}`")
    return path


def generated_stamp(generated: Path = GENERATED_DIR) -> str:
    """The SHA-256 of the generated sources the native delegate compiles, exactly as
    tools/generated_stamp.cmake computes it at build time: every generated/**/*.cpp and
    *.h, sorted by path, as "<path> <sha256 of its bytes>\n" lines."""
    versions = []
    for folder, _, names in os.walk(generated):
        for name in names:
            if name.endswith((".cpp", ".h")):
                st = os.stat(os.path.join(folder, name))
                path = Path(folder, name).relative_to(generated).as_posix()
                versions.append((path, st.st_mtime_ns, st.st_size))
    return _stamp(str(generated), tuple(sorted(versions)))


@functools.lru_cache(maxsize=8)
def _stamp(generated: str, versions: tuple) -> str:
    """The stamp of these file versions (hashed once per set of versions)."""
    lines = "".join(f"{name} {hashlib.sha256(Path(generated, name).read_bytes()).hexdigest()}\n"
                    for name, _, _ in versions)
    return hashlib.sha256(lines.encode()).hexdigest()


@functools.lru_cache(maxsize=None)
def _runner_stamp(path: str, mtime_ns: int) -> str:
    """What `<path> --build-stamp` prints ("" when the runner does not know the flag);
    cached per file version."""
    res = subprocess.run([path, "--build-stamp"], capture_output=True, text=True)
    out = res.stdout.strip()
    return out if res.returncode == 0 and len(out) == 64 else ""


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def kernel_module(kernel) -> Path:
    """The complete WGSL module `opgen generate` composes for `kernel` (a language
    Kernel): what every executor compiles."""
    return REPO_ROOT / "generated" / "ops" / kernel.folder.name / f"{kernel.name}.wgsl"
