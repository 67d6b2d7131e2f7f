"""What the NVIDIA driver makes of the GEMM tile: its registers and machine code.

wgpu exposes neither, so `run` compiles the matmul spec's gemm_vec4 text (unchecked, B as
[K, N] and as [N, K]; earlier variants in docs/performance.md) and its gemm_small on the
H200, each in its own process with a shader disk cache of its own (copied to OUT/sass),
and runs each once (the result checked against float64); `show` (here, with nvdisasm from PyPI's
nvidia-cuda-nvdisasm wheel on PATH and the zstandard module) takes the machine code out
of those cache files, disassembles it (a listing per variant in /tmp) and prints each
variant's highest register and the instruction mix of its K loop.
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

VARIANTS = ("spec_nn", "spec_nt", "small_nn")


def texts() -> dict[str, tuple[str, bool, int]]:
    """Each variant's kernel text, whether B is [N, K], and its tile."""
    from probe_tile_checks import SMALL_TILE, SPEC, TILE

    base = (SPEC / "gemm_vec4.wgsl").read_text()
    small = (SPEC / "gemm_small.wgsl").read_text()
    return {"spec_nn": (base, False, TILE), "spec_nt": (base, True, TILE),
            "small_nn": (small, False, SMALL_TILE)}


def one(out: Path, name: str) -> None:
    """Compile and run variant `name` once (this process's cache holds only it)."""
    from probe_tile_checks import Gemm
    from codegen.executors.wgpu_device import device

    code, b_is_nk, tile = texts()[name]
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 256), dtype=np.float32)
    b = rng.standard_normal((256, 256), dtype=np.float32)
    _, dev = device()
    g = Gemm(dev, a, np.ascontiguousarray(b.T) if b_is_nk else b, b_is_nk, code, 0, tile=tile)
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


ZSTD_MAGIC = bytes.fromhex("28b52ffd")
CODE_BLOB = b"NVDANVVM"  # the compiled pipeline; its machine code starts at byte 8


def machine_code(cache_file: bytes) -> bytes | None:
    """The sm_90 instructions of the largest compiled pipeline in one cache file: the
    driver stores zstd frames, one of which (decompressed) is an NVDANVVM blob. Found by
    looking at the files, not documented: a driver update may change it."""
    import zstandard  # pip install zstandard (here, not on the GPU machine)

    best = None
    at = cache_file.find(ZSTD_MAGIC)
    while at >= 0:
        try:
            frame = zstandard.ZstdDecompressor().decompressobj().decompress(cache_file[at:])
        except zstandard.ZstdError:
            frame = b""
        if frame.startswith(CODE_BLOB) and (best is None or len(frame) > len(best)):
            best = frame
        at = cache_file.find(ZSTD_MAGIC, at + 4)
    if best is None:
        return None
    code = best[len(CODE_BLOB):]
    return code[:len(code) // 16 * 16]


def loop_mix(sass: str) -> str:
    """The instruction mix of the longest loop (a backward branch): the K loop."""
    lines = [ln for ln in sass.splitlines() if re.search(r"/\*[0-9a-f]{4}\*/", ln)]
    addr = [int(re.search(r"/\*([0-9a-f]{4,})\*/", ln).group(1), 16) for ln in lines]
    best = None
    for i, ln in enumerate(lines):
        m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", ln)
        target = int(m.group(1), 16) if m else None
        if target is not None and target < addr[i] and target in addr:
            start = addr.index(target)
            if best is None or i - start > best[1] - best[0]:
                best = (start, i)
    if best is None:
        return "no loop found"
    ops = collections.Counter()
    for ln in lines[best[0]:best[1] + 1]:
        m = re.search(r"\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", ln)
        if m:
            ops[m.group(1)] += 1
    mix = ", ".join(f"{op} {n}" for op, n in ops.most_common(12))
    return (f"longest loop {hex(addr[best[0]])}..{hex(addr[best[1]])}, "
            f"{sum(ops.values())} instructions: {mix}")


def show(root: Path) -> None:
    """Each variant's registers and K loop; its full listing lands beside the cache file."""
    for name in VARIANTS:
        files = sorted((root / "sass" / name).glob("*.bin"))
        if not files:
            print(f"== {name}: no cache files under {root / 'sass' / name}")
            continue
        for path in files:
            code = machine_code(path.read_bytes())
            if code is None:
                print(f"== {name}: {path.name} holds no {CODE_BLOB.decode()} blob")
                continue
            raw = Path("/tmp") / f"probe_sass_{name}.raw"
            raw.write_bytes(code)
            sass = subprocess.run(["nvdisasm", "-b", "SM90", str(raw)], capture_output=True,
                                  text=True)
            if not sass.stdout:
                raise SystemExit(f"{name}: nvdisasm read nothing: {sass.stderr.strip()[:300]}")
            listing = raw.with_suffix(".sass")
            listing.write_text(sass.stdout)
            regs = max((int(r) for r in re.findall(r"\bR(\d+)\b", sass.stdout)), default=0)
            print(f"== {name}: registers R0-R{regs}; {loop_mix(sass.stdout)} ({listing})")


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
