"""What the NVIDIA driver makes of the GEMM tile: its registers and machine code.

wgpu exposes neither, so `run` compiles the matmul spec's gemm_vec4 text (unchecked, B as
[K, N] and as [N, K]), its fewer-row variants gemm_vec4_m64 and gemm_vec4_m32 (also with B
as [N, K], as linear runs them, and their float16 twins) and its gemm_small_scalar on the
GPU machine (K unsplit), each in its own process with a shader disk cache of its own
(copied to OUT/sass), and runs each once (the result checked against float64; with
PROBE_SASS_TIME=1 the [N, K] variants are also timed at TIMED_SHAPE); `show` (here, with
nvdisasm from PyPI's nvidia-cuda-nvdisasm wheel on PATH and the zstandard module) takes
the machine code out of those cache files, disassembles it (a listing per variant in /tmp)
and prints each variant's highest register and the instruction mix of its K loop. `one`
runs one variant in this process (any adapter: a quick check that the kernel text still
builds and computes).
Usage: python tools/probes/probe_sass.py run OUT | one OUT NAME | show DIR
(step `sass` of scripts/gpu_run.sh runs `run`).
"""

import collections
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SPEC = ROOT / "generated" / "ops" / "matmul"  # the composed modules the runtimes compile
VARIANTS = ("spec_nn", "spec_nt", "m64_nn", "m32_nn", "small_nn", "m64_nt", "m64_nt_f16",
            "m32_nt", "m32_nt_f16")
# (M, N, K) a variant is also timed at, B as [N, K] (a linear), when PROBE_SASS_TIME=1:
# ViT-B/16's MLP up-projection, where gemm_vec4_m32_f16 ran at 0.64x its float32 twin
TIMED_SHAPE = (196, 3072, 768)


def texts() -> dict[str, tuple[str, bool, tuple[int, int]]]:
    """Each variant's kernel text, whether B is [N, K], and its tile (columns, rows)."""
    from codegen.specs.matmul.matmul import SMALL_TILE, TILE

    def text(kernel: str) -> str:
        return (SPEC / f"{kernel}.wgsl").read_text()

    return {"spec_nn": (text("gemm_vec4"), False, (TILE, TILE)),
            "spec_nt": (text("gemm_vec4"), True, (TILE, TILE)),
            "m64_nn": (text("gemm_vec4_m64"), False, (TILE, 64)),
            "m32_nn": (text("gemm_vec4_m32"), False, (TILE, 32)),
            "small_nn": (text("gemm_small_scalar"), False, (SMALL_TILE, SMALL_TILE)),
            "m64_nt": (text("gemm_vec4_m64"), True, (TILE, 64)),
            "m64_nt_f16": (text("gemm_vec4_m64_f16"), True, (TILE, 64)),
            "m32_nt": (text("gemm_vec4_m32"), True, (TILE, 32)),
            "m32_nt_f16": (text("gemm_vec4_m32_f16"), True, (TILE, 32))}


def params_words(code: str, values: dict) -> np.ndarray:
    """The kernel's uniform Params (one 4-byte word per field, as the matmul spec's are),
    read from its own struct so the probe follows the spec's layout; fields not in
    `values` are 0."""
    body = re.search(r"struct Params \{(.*?)\}", code, re.S).group(1)
    fields = re.findall(r"(\w+): (u32|f32)", body)
    words = np.zeros(-(-len(fields) // 4) * 4, dtype=np.uint32)
    for i, (name, kind) in enumerate(fields):
        words[i] = np.array(values.get(name, 0), dtype=np.float32 if kind == "f32"
                            else np.uint32).view(np.uint32)
    return words


def gemm_once(dev, a: np.ndarray, b: np.ndarray, b_is_nk: bool, code: str,
              tile: tuple[int, int], timed: int = 0) -> tuple[np.ndarray, float]:
    """a @ b (b given as [N, K] when b_is_nk) on the spec's kernel text, without runtime
    checks as the spec creates it, K unsplit; the result read back, and with `timed` > 0
    the median ms of one dispatch over passes of `timed` dispatches back to back (else
    0). a and b are float16 for a kernel that views float16."""
    import wgpu

    from codegen.executors.wgpu_device import unchecked_module
    from codegen.specs.matmul.matmul import K_STEP

    usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST

    def buffer(array=None, nbytes=0, kind=usage):
        size = array.nbytes if array is not None else nbytes
        buf = dev.create_buffer(size=max(16, -(-size // 16) * 16), usage=kind)
        if array is not None:
            dev.queue.write_buffer(buf, 0, np.ascontiguousarray(array))
        return buf

    def group(pipe, resources):
        return dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
            {"binding": i, "resource": {"buffer": r}} for i, r in enumerate(resources)])

    M, K = a.shape
    N = b.shape[0] if b_is_nk else b.shape[1]
    values = {"M": M, "N": N, "K": K, "batch": 1, "k_chunk": -(-K // K_STEP) * K_STEP,
              "split": 1, "alpha": 1.0}
    params = buffer(params_words(code, values),
                    kind=wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST)
    ab, bb = buffer(a), buffer(b)
    partial = buffer(nbytes=16)
    out = buffer(nbytes=a.itemsize * M * N)
    # the dispatch's slots: params, a, b, bias (a stands in, unread), partial, out
    pipe = dev.create_compute_pipeline(layout="auto", compute={
        "module": unchecked_module(dev, code, "probe_sass"), "entry_point": "main",
        "constants": {"B_IS_NK": 1 if b_is_nk else 0}})
    encoder = dev.create_command_encoder()
    passes = 7 if timed else 1
    qs = dev.create_query_set(type=wgpu.QueryType.timestamp, count=2 * passes) if timed else None
    bind = group(pipe, [params, ab, bb, ab, partial, out])
    for i in range(passes):
        cpass = encoder.begin_compute_pass(timestamp_writes={
            "query_set": qs, "beginning_of_pass_write_index": 2 * i,
            "end_of_pass_write_index": 2 * i + 1} if timed else None)
        cpass.set_pipeline(pipe)
        cpass.set_bind_group(0, bind)
        for _ in range(max(1, timed)):
            cpass.dispatch_workgroups(-(-N // tile[0]), -(-M // tile[1]), 1)
        cpass.end()
    ms = 0.0
    if timed:
        resolve = buffer(nbytes=16 * passes, kind=wgpu.BufferUsage.QUERY_RESOLVE
                         | wgpu.BufferUsage.COPY_SRC)
        encoder.resolve_query_set(qs, 0, 2 * passes, resolve, 0)
    dev.queue.submit([encoder.finish()])
    if timed:
        ticks = np.frombuffer(bytes(dev.queue.read_buffer(resolve)), np.uint64).astype(np.int64)
        ms = float(np.median((ticks[1::2] - ticks[0::2])[1:])) * 1e-6 / timed
    got = np.frombuffer(bytes(dev.queue.read_buffer(out)), dtype=a.dtype)
    return got[:M * N].reshape(M, N).astype(np.float32), ms


def one(out: Path, name: str) -> None:
    """Compile and run variant `name` once (this process's cache holds only it)."""
    from codegen.executors.wgpu_device import device

    code, b_is_nk, tile = texts()[name]
    dtype = np.float16 if name.endswith("_f16") else np.float32
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 256), dtype=np.float32).astype(dtype)
    b = rng.standard_normal((256, 256), dtype=np.float32).astype(dtype)
    _, dev = device()
    got, _ = gemm_once(dev, a, np.ascontiguousarray(b.T) if b_is_nk else b, b_is_nk, code, tile)
    want = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.abs(got - want).max())
    print(f"{name}: ran, max abs error {err:.2e}", flush=True)
    if err > (0.1 if dtype == np.float16 else 1e-3):
        raise SystemExit(f"{name}: wrong result (max abs error {err:.2e})")
    if b_is_nk and os.environ.get("PROBE_SASS_TIME") == "1":
        M, N, K = TIMED_SHAPE
        a = rng.standard_normal((M, K), dtype=np.float32).astype(dtype)
        b = rng.standard_normal((N, K), dtype=np.float32).astype(dtype)
        _, ms = gemm_once(dev, a, b, True, code, tile, timed=20)
        print(f"{name}: {M}x{N}x{K} {ms:.4f} ms, {2 * M * N * K / ms * 1e-9:.1f} TFLOP/s",
              flush=True)


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
