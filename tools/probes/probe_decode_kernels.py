"""What limits the LLM decode step's kernels: the 4-bit GEMVs (linear_q4gsw's one-row
kernels and layouts around them) and rms_norm_rows at a Llama-3.2-1B's shapes, each kernel
text and variants of it timed alone on the adapter, as the runtime records them (one
compute pass, the same dispatch back to back, so no pass boundary is counted), and each
result checked against numpy.

Weights stream from memory in a decode step (772 MB a token, far beyond the L2 cache), so
the dispatches rotate over copies of the weights and scales that together exceed
STREAM_BYTES (the activations, written by the previous kernel, stay L2-resident in the
model too). Every variant is compiled without runtime checks, as the probe's GEMM twin
(probe_sass.py) compiles the tile, so a kernel the runtime builds with checks (the spec's
Kernel(runtime_checks=True), the default) can run much slower in the model than here: a
one-row-per-thread GEMV measured faster here while, checked, the model's decode GEMVs took
twice as long (naga's clamped indexing keeps its private array out of registers). A
layout is judged in the model (`benchmarks/llm_compare.py`); the probe locates where a
kernel's time goes (docs/performance.md, "Several weight rows per thread in the decode
GEMVs").

The GEMV variants: the rows layouts (`rows_variant`: rows per thread x warps per row, on
q4gsw_gemv_subgroup's module for its accessors) and the spec's rows kernels, portable and
_subgroup. The one-row-per-thread kernels the decode ran before (and their variants:
nibbles by an OR into 2^23's mantissa, four quads in flight, 16 threads per row) left the
spec with the rows kernels; their figures are in docs/performance.md. The norms: the
spec's rms_norm_rows and it with a subgroup reduction. A variant is the generated module
with some of its functions replaced (`replace`), so it keeps the spec's interface. `run`
times every variant; with `--sass
OUT` each variant is also compiled in a process with a shader disk cache of its own,
copied to OUT/sass/<variant>, for disassembly here (`sass DIR`: registers, local-memory
traffic and the instruction mix of each listing).
Usage: python tools/probes/probe_decode_kernels.py run [--sass OUT] | sass DIR
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
GEN = ROOT / "generated" / "ops"
BACK_TO_BACK = 20  # dispatches per timed pass
ITERS = 15
STREAM_BYTES = 200e6  # the weight copies a GEMV rotates over (H100 / H200 L2: 50 / 60 MB)

# (N, K) of a Llama-3.2-1B decode step's linears: q and o, k and v, gate and up, down,
# the output projection
GEMV_SHAPES = [(2048, 2048), (512, 2048), (8192, 2048), (2048, 8192), (128256, 2048)]
GROUP = 32


def replace(text: str, name: str, new: str) -> str:
    """`text` with function `name` (its definition up to the closing brace in column 0)
    replaced by `new`."""
    m = re.search(rf"^fn {name}\(.*?^}}\n", text, re.S | re.M)
    if m is None:
        raise SystemExit(f"probe: no function {name} in the module")
    return text[:m.start()] + new.strip() + "\n" + text[m.end():]


# --- GEMV variants -----------------------------------------------------------------------

def rows_variant(base: str, rows: int, warps: int) -> str:
    """q4gsw_lanes' layout (4 adjacent quads of 8 interleaved rows per warp) with each
    thread dotting `rows` weight rows (n, n + 8, ...) with one load of the input quad, and
    `warps` warps (k-blocks) per workgroup: 8 * rows rows per workgroup, 4 * warps threads
    per row."""
    text = base.replace("const WORKGROUP_SIZE_X: u32 = 256u;",
                        f"const WORKGROUP_SIZE_X: u32 = {32 * warps}u;")
    body = f"""
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) tid: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {{
  let group = gemv_group(gid, num_workgroups);
  let n = group * (8u * R) + (tid / 4u) % 8u;
  let quads = params.K / 32u;
  var s: array<f32, R>;
  for (var q = tid % 4u + 4u * (tid / 32u); q < quads; q += 4u * W) {{
    let d = dot_rows(n, q);
    for (var r = 0u; r < R; r++) {{
      s[r] += d[r];
    }}
  }}
  for (var r = 0u; r < R; r++) {{
    s[r] += subgroupShuffleXor(s[r], 1u);
    s[r] += subgroupShuffleXor(s[r], 2u);
  }}
  if (tid % 4u == 0u) {{
    for (var r = 0u; r < R; r++) {{
      parts[(tid / 32u) * (8u * R) + r * 8u + (tid / 4u) % 8u] = s[r];
    }}
  }}
  workgroupBarrier();
  if (tid < 8u * R) {{
    var total = 0.0;
    for (var k = 0u; k < W; k++) {{
      total += parts[k * (8u * R) + tid];
    }}
    store_output(0u, group * (8u * R) + tid, total);
  }}
}}

const R: u32 = {rows}u;
const W: u32 = {warps}u;
var<workgroup> parts: array<f32, {8 * rows * warps}>;  // [warp][row]

fn dot_rows(n: u32, q: u32) -> array<f32, R> {{
  let quads = params.K / 32u;
  var words: array<vec4<u32>, R>;
  for (var r = 0u; r < R; r++) {{
    words[r] = w[(n + 8u * r) * quads + q];
  }}
  var x: array<vec4<f32>, 8>;
  for (var i = 0u; i < 8u; i++) {{
    x[i] = input4(0u, q * 8u + i);
  }}
  let g = (q * 32u / params.group_size) * params.N + n;
  var s: array<f32, R>;
  for (var r = 0u; r < R; r++) {{
    var t = 0.0;
    for (var j = 0u; j < 4u; j++) {{
      let v = nibbles(words[r][j]);
      t += dot(x[2u * j], v[0]) + dot(x[2u * j + 1u], v[1]);
    }}
    s[r] = t * scales_load(g + 8u * r);
  }}
  return s;
}}
"""
    return replace(text, "main", body)


# rows per workgroup of each variant
GEMV_ROWS = {**{f"gemv_spec_{k}{s}": r for k, r in (("rows", 16), ("rows4", 32))
                for s in ("", "_subgroup")},
             **{f"gemv_r{r}w{w}": 8 * r for r in (2, 4, 8) for w in (4, 8, 16)}}
# (rows per thread, warps) of the rows_variant layouts timed
ROW_LAYOUTS = [(2, 8), (2, 16), (2, 4), (4, 4), (4, 8), (4, 16), (8, 8)]


def gemv_variants() -> dict[str, str]:
    """The rows layouts (rows per thread x warps) and the spec's rows kernels."""
    spec = GEN / "linear_q4gsw"
    base = (spec / "q4gsw_gemv_subgroup.wgsl").read_text()
    return {**{f"gemv_r{r}w{w}": rows_variant(base, r, w) for r, w in ROW_LAYOUTS},
            **{f"gemv_spec_{name}": (spec / f"q4gsw_gemv_{name}.wgsl").read_text()
               for name in ("rows", "rows_subgroup", "rows4", "rows4_subgroup")}}


def gemv_case(dev, name: str, n: int, k: int):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(k, dtype=np.float32)
    packed = rng.integers(0, 256, (n, k // 2), dtype=np.uint8)
    scales = rng.uniform(-0.2, 0.2, (k // GROUP, n)).astype(np.float32)
    low = (packed & 15).astype(np.int32) - 8
    high = (packed >> 4).astype(np.int32) - 8
    wq = np.empty((n, k), np.float32)
    wq[:, 0::2], wq[:, 1::2] = low, high
    per_group = np.einsum("ngk,gk->ng", wq.reshape(n, k // GROUP, GROUP),
                          x.reshape(k // GROUP, GROUP))
    want = (per_group * scales.T).sum(1)
    params = np.array([1, n, k, k // 8, GROUP, 0, 0, 0], np.uint32)
    buffers = [params, x, packed, scales, np.zeros(4, np.float32), None]
    grid = (-(-n // GEMV_ROWS[name]), 1, 1)
    return buffers, n * 4, grid, want, n * k // 2 + scales.nbytes, (2, 3)


# --- rms_norm variants -------------------------------------------------------------------

# the sum by subgroupAdd, then one value per subgroup through workgroup memory (subgroups
# of 32, as NVIDIA's are)
SUBGROUP_SUM = """
fn workgroup_sum(lid: u32) -> f32 {
  let s = subgroupAdd(partial[lid]);
  workgroupBarrier();
  if (lid % 32u == 0u) {
    partial[lid / 32u] = s;
  }
  workgroupBarrier();
  var total = 0.0;
  for (var i = 0u; i < WORKGROUP_SIZE_X / 32u; i++) {
    total += partial[i];
  }
  workgroupBarrier();
  return total;
}
"""


def rms_variants() -> dict[str, str]:
    base = (GEN / "rms_norm" / "rms_norm_rows.wgsl").read_text()
    return {"rms_spec": base,
            "rms_spec_subgroup": "enable subgroups;\n" + replace(base, "workgroup_sum",
                                                                  SUBGROUP_SUM)}


def rms_case(dev, name: str, n: int, k: int):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(k, dtype=np.float32)
    weight = rng.standard_normal(k, dtype=np.float32)
    want = x / np.sqrt(np.mean(x.astype(np.float64) ** 2) + 1e-5) * weight
    params = np.array([k, 1, 0, 0], np.uint32)
    params[2] = np.array(1e-5, np.float32).view(np.uint32)
    return [params, x, weight, None], k * 4, (1, 1, 1), want.astype(np.float32), 3 * k * 4, ()


# --- timing ------------------------------------------------------------------------------

def time_kernel(dev, text: str, label: str, case) -> tuple[float, float, float]:
    """(us per dispatch, max relative error, bytes) of `text` on `case`'s buffers."""
    import wgpu

    from codegen.executors.wgpu_device import naga_source, unchecked_module

    buffers, out_bytes, grid, want, nbytes, streamed = case
    usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
    streamed_bytes = sum(buffers[i].nbytes for i in streamed)
    copies = min(256, max(1, int(-(-STREAM_BYTES // streamed_bytes)))) if streamed else 1

    def upload(i: int, array):
        size = out_bytes if array is None else array.nbytes
        kind = (wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST) if i == 0 else usage
        buf = dev.create_buffer(size=max(16, -(-size // 16) * 16), usage=kind)
        if array is not None:
            dev.queue.write_buffer(buf, 0, np.ascontiguousarray(array).tobytes())
        return buf

    gpu = [upload(i, a) for i, a in enumerate(buffers)]
    sets = [gpu] + [[upload(i, a) if i in streamed else b for i, (a, b) in
                     enumerate(zip(buffers, gpu))] for _ in range(copies - 1)]
    pipe = dev.create_compute_pipeline(layout="auto", compute={
        "module": unchecked_module(dev, naga_source(text), label), "entry_point": "main"})
    groups = [dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
        {"binding": i, "resource": {"buffer": b}} for i, b in enumerate(bufs)]) for bufs in sets]
    qs = dev.create_query_set(type=wgpu.QueryType.timestamp, count=2 * ITERS)
    resolve = dev.create_buffer(size=16 * ITERS, usage=wgpu.BufferUsage.QUERY_RESOLVE
                                | wgpu.BufferUsage.COPY_SRC)
    encoder = dev.create_command_encoder()
    for i in range(ITERS):
        cpass = encoder.begin_compute_pass(timestamp_writes={
            "query_set": qs, "beginning_of_pass_write_index": 2 * i,
            "end_of_pass_write_index": 2 * i + 1})
        cpass.set_pipeline(pipe)
        for j in range(BACK_TO_BACK):
            cpass.set_bind_group(0, groups[(i * BACK_TO_BACK + j) % copies])
            cpass.dispatch_workgroups(*grid)
        cpass.end()
    encoder.resolve_query_set(qs, 0, 2 * ITERS, resolve, 0)
    dev.queue.submit([encoder.finish()])
    ticks = np.frombuffer(bytes(dev.queue.read_buffer(resolve)), dtype=np.uint64).astype(np.int64)
    us = statistics.median((ticks[1::2] - ticks[0::2])[2:]) * 1e-3 / BACK_TO_BACK
    got = np.frombuffer(bytes(dev.queue.read_buffer(gpu[-1])), dtype=np.float32)[:want.size]
    err = float(np.abs(got - want).max() / max(1e-6, float(np.abs(want).max())))
    return us, err, nbytes


def families():
    quick = os.environ.get("PROBE_QUICK") == "1"  # small shapes: a check on a CPU adapter
    return [("gemv", gemv_variants(), gemv_case,
             [(64, 256), (128, 1024)] if quick else GEMV_SHAPES),
            ("rms_norm", rms_variants(), rms_case, [(1, 2048)])]


def run_one(name: str) -> None:
    """Time variant `name` on every shape of its family (this process's own cache)."""
    from codegen.executors.wgpu_device import device

    _, dev = device()
    for _family, texts, make, shapes in families():
        if name not in texts:
            continue
        for n, k in shapes:
            us, err, nbytes = time_kernel(dev, texts[name], name, make(dev, name, n, k))
            flag = "" if err < 1e-4 else "  WRONG"
            print(f"  {name:24s} N={n:6d} K={k:5d} {us:8.2f} us  {nbytes / us * 1e-3:7.1f} GB/s"
                  f"  err {err:.1e}{flag}", flush=True)


def run(sass_out: Path | None) -> None:
    from codegen.executors.wgpu_device import adapter_line

    print("adapter:", adapter_line(), flush=True)
    for family, texts, _make, _shapes in families():
        print(f"== {family}", flush=True)
        for name in texts:
            env = dict(os.environ)
            cache = Path("/tmp/probe_decode_cache") / name
            if sass_out is not None:
                shutil.rmtree(cache, ignore_errors=True)
                cache.mkdir(parents=True)
                env.update(__GL_SHADER_DISK_CACHE="1", __GL_SHADER_DISK_CACHE_PATH=str(cache),
                           __GL_SHADER_DISK_CACHE_SKIP_CLEANUP="1")
            subprocess.run([sys.executable, __file__, "one", name], env=env, check=False)
            if sass_out is not None:
                kept = sass_out / "sass" / name
                kept.mkdir(parents=True, exist_ok=True)
                for p in (p for p in cache.rglob("*") if p.is_file()):
                    shutil.copy(p, kept / p.name)


def sass(root: Path) -> None:
    """Each variant's listing: registers, local memory (spills or dynamically indexed
    arrays) and instruction mix."""
    from collections import Counter

    sys.path.insert(0, str(ROOT / "tools" / "probes"))
    from probe_sass import machine_code

    for folder in sorted((root / "sass").iterdir()):
        for path in sorted(folder.glob("*.bin")):
            code = machine_code(path.read_bytes())
            if code is None:
                continue
            raw = Path("/tmp") / f"probe_decode_{folder.name}.raw"
            raw.write_bytes(code)
            done = subprocess.run(["nvdisasm", "-b", "SM90", str(raw)], capture_output=True,
                                  text=True)
            listing = done.stdout
            raw.with_suffix(".sass").write_text(listing)
            if not re.search(r"/\*[0-9a-f]{4}\*/", listing):
                print(f"== {folder.name}: nvdisasm read no instructions "
                      f"({done.stderr.strip()[:200] or 'no message'})")
                continue
            regs = max((int(r) for r in re.findall(r"\bR(\d+)\b", listing)), default=0)
            ops = Counter(m.group(1) for m in re.finditer(
                r"\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", listing))
            local = sum(n for op, n in ops.items() if op in ("LDL", "STL"))
            mix = ", ".join(f"{op} {n}" for op, n in ops.most_common(14))
            print(f"== {folder.name}: R0-R{regs}, {local} local loads/stores; {mix}")


def main() -> None:
    mode = sys.argv[1]
    if mode == "run":
        run(Path(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--sass" else None)
    elif mode == "one":
        run_one(sys.argv[2])
    elif mode == "sass":
        sass(Path(sys.argv[2]))
    else:
        raise SystemExit(f"probe_decode_kernels.py: unknown mode {mode!r} (run, one or sass)")


if __name__ == "__main__":
    main()
