"""Wall time of `opgen generate` (no-op and full rewrite) and `opgen check` for all specs.

Targets: generate <= 1.0 s, check <= 0.5 s. Each figure is the median of 5 runs of the
command as a user types it (a fresh interpreter each time). `check` and the no-op
`generate` run after a generate (clang-format results cached in .opgen-cache/); the full
`generate` starts from no outputs and an empty cache.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(args, cwd) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "codegen", *args], cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL, env=dict(os.environ, XDG_RUNTIME_DIR="/tmp"))
    return time.perf_counter() - t0


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        for name in ("codegen", "generated"):
            shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(ROOT / ".clang-format", repo / ".clang-format")
        timed(["check"], repo)  # warm the bytecode cache
        check = statistics.median(timed(["check"], repo) for _ in range(5))
        noop = statistics.median(timed(["generate"], repo) for _ in range(5))
        full = []
        for _ in range(5):  # cold: no outputs and no clang-format cache
            shutil.rmtree(repo / "generated" / "ops")
            shutil.rmtree(repo / ".opgen-cache", ignore_errors=True)
            full.append(timed(["generate"], repo))
        full_t = statistics.median(full)
    n_ops = sum(1 for _ in (ROOT / "generated" / "ops").rglob("*.cpp"))
    print(f"specs: {n_ops} ops (one handler each)")
    print(f"opgen check             {check:6.3f} s   (target <= 0.5 s)  {'OK' if check <= 0.5 else 'MISSED'}")
    print(f"opgen generate (no-op)  {noop:6.3f} s   (target <= 1.0 s)  {'OK' if noop <= 1.0 else 'MISSED'}")
    print(f"opgen generate (full)   {full_t:6.3f} s   (target <= 1.0 s)  {'OK' if full_t <= 1.0 else 'MISSED'}")


if __name__ == "__main__":
    main()
