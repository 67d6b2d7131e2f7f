"""What the NVIDIA driver makes of the GEMM tile: its registers and machine code.

wgpu exposes neither, so `run` compiles tile variants (the matmul spec's gemm_vec4 text,
unchecked, B as [K, N] and as [N, K], and the text variants below) on the H200, each in
its own process with the driver's shader disk cache of its own (copied to OUT/sass), and runs each once
(the result checked against float64); `show` (here, with CUDA's cuobjdump and nvdisasm
from PyPI's nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm wheels on PATH) carves the
cubins out of those cache files and prints each kernel's register count, shared memory,
and the instruction mix of its hottest loop.
Usage: python benchmarks/probe_sass.py run OUT | one OUT NAME | show DIR
"""

import collections
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

VARIANTS = ("eager_unrolled_nn", "eager_stepped_nn", "rotated_stepped_nn")


def texts() -> dict[str, tuple[str, bool]]:
    from probe_tile_checks import SPEC, eager, rotated, stepped, unrolled

    base = (SPEC / "gemm_vec4.wgsl").read_text()
    return {"spec_nn": (base, False), "spec_nt": (base, True),
            "unrolled_nn": (unrolled(base), False), "eager_nn": (eager(base), False),
            "eager_unrolled_nn": (eager(unrolled(base)), False),
            "eager_stepped_nn": (eager(stepped(base)), False),
            "rotated_stepped_nn": (rotated(eager(stepped(base))), False)}


def one(out: Path, name: str) -> None:
    """Compile and run variant `name` once (this process's cache holds only it)."""
    from probe_tile_checks import Gemm
    from codegen.executors.wgpu_device import device

    code, b_is_nk = texts()[name]
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 256), dtype=np.float32)
    b = rng.standard_normal((256, 256), dtype=np.float32)
    _, dev = device()
    g = Gemm(dev, a, np.ascontiguousarray(b.T) if b_is_nk else b, b_is_nk, code, 0)
    g.time(1)
    err = float(np.abs(g.result() - a.astype(np.float64) @ b.astype(np.float64)).max())
    print(f"{name}: ran, max abs error {err:.2e}", flush=True)
    if err > 1e-3:
        raise SystemExit(f"{name}: wrong result (max abs error {err:.2e})")


def run(out: Path) -> None:
    for name in VARIANTS:
        cache = Path("/tmp/probe_sass_cache") / name
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir(parents=True)
        env = dict(os.environ, __GL_SHADER_DISK_CACHE="1", __GL_SHADER_DISK_CACHE_PATH=str(cache),
                   __GL_SHADER_DISK_CACHE_SKIP_CLEANUP="1")
        subprocess.run([sys.executable, __file__, "one", str(out), name], env=env, check=True)
        # the driver nests its files four folders deep; the device tool brings back two
        kept = out / "sass" / name
        kept.mkdir(parents=True, exist_ok=True)
        files = [p for p in cache.rglob("*") if p.is_file()]
        for p in files:
            shutil.copy(p, kept / p.name)
        print(f"{name}: {len(files)} cache files, {sum(p.stat().st_size for p in files)} bytes",
              flush=True)


def cubins(blob: bytes):
    """Every ELF image inside `blob`, cut at its section header table's end."""
    at = blob.find(b"\x7fELF")
    while at >= 0:
        head = blob[at:at + 64]
        if len(head) == 64 and head[4] == 2:  # 64-bit
            shoff = int.from_bytes(head[40:48], "little")
            shentsize = int.from_bytes(head[58:60], "little")
            shnum = int.from_bytes(head[60:62], "little")
            end = at + shoff + shentsize * shnum
            if shoff and end <= len(blob):
                yield blob[at:end]
        at = blob.find(b"\x7fELF", at + 4)


def loop_mix(sass: str) -> str:
    """The instruction mix of the longest backward-branching block: the K loop."""
    lines = [ln for ln in sass.splitlines() if re.search(r"/\*[0-9a-f]{4,}\*/", ln)]
    addr = [int(re.search(r"/\*([0-9a-f]{4,})\*/", ln).group(1), 16) for ln in lines]
    best = None
    for i, ln in enumerate(lines):
        m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", ln)
        if m and int(m.group(1), 16) < addr[i]:
            start = addr.index(int(m.group(1), 16)) if int(m.group(1), 16) in addr else None
            if start is not None and (best is None or i - start > best[1] - best[0]):
                best = (start, i)
    if best is None:
        return "no backward branch found"
    ops = collections.Counter()
    for ln in lines[best[0]:best[1] + 1]:
        m = re.search(r"\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", ln)
        if m:
            ops[m.group(1).split(".")[0]] += 1
    total = sum(ops.values())
    mix = ", ".join(f"{op} {n}" for op, n in ops.most_common(14))
    return f"{total} instructions ({hex(addr[best[0]])}..{hex(addr[best[1]])}): {mix}"


def show(root: Path) -> None:
    for name in VARIANTS:
        files = sorted(p for p in (root / "sass" / name).rglob("*") if p.is_file())
        print(f"== {name}: {len(files)} cache files")
        found = 0
        for p in files:
            for i, image in enumerate(cubins(p.read_bytes())):
                found += 1
                cubin = Path("/tmp") / f"probe_sass_{name}_{found}.cubin"
                cubin.write_bytes(image)
                res = subprocess.run(["cuobjdump", "-res-usage", str(cubin)],
                                     capture_output=True, text=True)
                print("  " + " ".join((res.stdout + res.stderr).split())[:400])
                sass = subprocess.run(["nvdisasm", "-c", str(cubin)], capture_output=True,
                                      text=True)
                if sass.returncode:
                    print("  nvdisasm: " + sass.stderr.strip()[:300])
                    continue
                Path(str(cubin) + ".sass").write_text(sass.stdout)
                print(f"  {cubin}.sass: " + loop_mix(sass.stdout))
        if not found:
            for p in files:
                print(f"  {p.relative_to(root)}: {p.stat().st_size} bytes, no ELF image; "
                      f"starts {p.read_bytes()[:16].hex()}")


def main() -> None:
    mode, where = sys.argv[1], Path(sys.argv[2])
    if mode == "run":
        run(where)
    elif mode == "one":
        one(where, sys.argv[3])
    elif mode == "show":
        show(where)
    else:
        raise SystemExit(f"probe_sass.py: unknown mode {mode!r} (run, one or show)")


if __name__ == "__main__":
    main()
