"""What the GEMM tile loses to wgpu-native's shader runtime checks, what other tile shapes
and orders give, and how ORT's MatMul figures on the ViT-B shapes depend on the chain
that measures them (H200 runs; figures in docs/performance.md).

Default: the matmul spec's own gemm_vec4 text (codegen/specs/matmul/gemm_vec4.wgsl), B as
[K, N] and as [N, K], compiled three ways: checked (wgpuDeviceCreateShaderModule: naga
clamps every workgroup-array index and bounds every loop), without loop bounding, and
with no runtime checks (wgpuDeviceCreateShaderModuleTrusted). Every variant is checked
against float64 before it is timed (GPU timestamps, median of 20), beside torch CUDA fp32
(TF32 off, back to back).
Then the unchecked tile at other split-K counts than the spec's rule, the tile (with its
split-K sum) timed back to back, 1 and 21 calls between one pair of timestamps, as ORT's
chains time it, and probe_gemm's smaller tiles on the 196-row shapes.
ORT: 1576 x 768 x {2304, 3072} as the bench measured it (a MatMul chain through Slices,
weights as initializers), with the weights fed as graph inputs instead, and as a chain of
MLP pairs (x @ W1 @ W2, back to 768 columns).
Modes: `variants` (step tile_variants) times the unchecked tile at 120-300 tiles (how many
workgroups run at once), probe_gemm's tiles of other shapes and K steps, and tile text
variants (warps over 8 x 4 threads); `swizzle` (step tile_bands of scripts/gpu_run.sh)
times the unchecked tile with workgroups walking the output in bands of tile rows; `splits` (step tile_splits) at
split-K 1..4 on the large shapes. Usage: python benchmarks/probe_tile_checks.py [small]
[variants|swizzle|splits] ("small" runs shapes lavapipe finishes in seconds).
The tile's text variants of earlier sessions (its K loop unrolled; the eager, stepped and
rotated forms behind the present gemm_tile.wgsl) were transforms of the kernel as it was
then; they live in this file's history (commit 7e065dd, on the gemm_vec4.wgsl of 799d2f9)
and their figures in docs/performance.md.
"""

import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import wgpu
import probe_gemm  # benchmarks/, this script's folder
from probe_gemm import torch_ms  # torch back to back

from codegen.executors.wgpu_device import _adapter, adapter_line, device, unchecked_module
from codegen.specs.matmul.matmul import (K_STEP, MAX_SPLIT, MIN_SLICE_STEPS, SMALL_SPLIT_BELOW,
                                         SMALL_SPLIT_TARGET, SMALL_TILE, SPLIT_BELOW,
                                         SPLIT_TARGET, TILE)

SPEC = Path(__file__).resolve().parents[1] / "codegen" / "specs" / "matmul"


def spec_split(M: int, N: int, K: int, tile: int = TILE) -> int:
    """The matmul spec's split-K count (its SPLIT_LETS) for `tile` x `tile` tiles (gemm_vec4's
    or gemm_small's)."""
    below, target = (SMALL_SPLIT_BELOW, SMALL_SPLIT_TARGET) if tile == SMALL_TILE else \
        (SPLIT_BELOW, SPLIT_TARGET)
    tiles = -(-M // tile) * -(-N // tile)
    max_split = max(1, min(-(-K // K_STEP) // MIN_SLICE_STEPS, MAX_SPLIT))
    return min(-(-target // max(tiles, 1)), max_split) if tiles < below else 1
CHECKS = {"checked": None, "no-loop-bounding": 1, "unchecked": 0}  # WGPUShaderRuntimeChecks


def module(dev, code: str, checks: int | None):
    """The module with wgpu-py's default checks (None), or with only `checks` kept."""
    if checks is None:
        return dev.create_shader_module(code=code)
    return unchecked_module(dev, code, "probe", keep=checks)


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


class Gemm:
    """One GEMM on the spec's kernels: the tile pass, and the split sum when K is split."""

    def __init__(self, dev, a, b, b_is_nk: bool, code: str, checks: int | None,
                 split: int | None = None, tile: int = TILE):
        self.dev = dev
        M, K = a.shape
        N = b.shape[0] if b_is_nk else b.shape[1]
        steps = -(-K // K_STEP)
        if split is None:
            split = spec_split(M, N, K, tile)
        k_chunk = -(-steps // split) * K_STEP
        self.M, self.N, self.split = M, N, split
        values = {"M": M, "N": N, "K": K, "batch": 1, "k_chunk": k_chunk, "split": split,
                  "alpha": 1.0}
        params = self.buffer(params_words(code, values), wgpu.BufferUsage.UNIFORM)
        ab, bb = self.buffer(a), self.buffer(b)
        partial = self.buffer(nbytes=4 * split * M * N if split > 1 else 16)
        self.out = self.buffer(nbytes=4 * M * N)
        resources = [params, ab, bb, ab, partial, self.out]
        pipe = dev.create_compute_pipeline(layout="auto", compute={
            "module": module(dev, code, checks), "entry_point": "main",
            "constants": {"B_IS_NK": 1 if b_is_nk else 0}})
        self.passes = [(pipe, self.group(pipe, resources, range(6)),
                        (-(-N // tile), -(-M // tile), split))]
        if split > 1:
            text = (SPEC / "gemm_split_sum.wgsl").read_text()
            sum_pipe = dev.create_compute_pipeline(layout="auto", compute={
                "module": module(dev, text, checks), "entry_point": "main"})
            # its slots: 0 params, 1 partial, 2 bias, 3 output
            sums = [resources[0], partial, ab, self.out]
            groups = -(-M * N // 256)
            self.passes.append((sum_pipe, self.group(sum_pipe, sums, range(4)),
                                (min(groups, 65535), -(-groups // 65535), 1)))

    def buffer(self, array=None, usage=0, nbytes=0):
        usage |= wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
        if usage & wgpu.BufferUsage.UNIFORM:
            usage &= ~wgpu.BufferUsage.STORAGE
        size = array.nbytes if array is not None else nbytes
        buf = self.dev.create_buffer(size=max(16, -(-size // 16) * 16), usage=usage)
        if array is not None:
            self.dev.queue.write_buffer(buf, 0, np.ascontiguousarray(array))
        return buf

    def group(self, pipe, resources, bindings):
        layout = pipe.get_bind_group_layout(0)
        entries = [{"binding": i, "resource": {"buffer": resources[i]}} for i in bindings]
        return self.dev.create_bind_group(layout=layout, entries=entries)

    def time(self, iters: int, calls: int = 1, passes: slice = slice(None),
             one_pass: bool = False) -> float:
        """Median ms over `iters` timings of `calls` back-to-back runs (of `passes`), a
        compute pass per dispatch or, with `one_pass`, one pass per timing."""
        return probe_gemm.Runner.time(self, self.passes[passes], iters, calls, warmup=3,
                                      one_pass=one_pass)

    def result(self) -> np.ndarray:
        got = np.frombuffer(bytes(self.dev.queue.read_buffer(self.out)), dtype=np.float32)
        return got[:self.M * self.N].reshape(self.M, self.N)


def problems(shapes, iters: int, seed: int):
    """Each M x K x N's inputs, float64 product, FLOPs and torch's time (back to back),
    announced with torch's figure."""
    rng = np.random.default_rng(seed)
    for (M, K, N) in shapes:
        a = rng.standard_normal((M, K), dtype=np.float32)
        b = rng.standard_normal((K, N), dtype=np.float32)
        flops = 2.0 * M * N * K
        ref = torch_ms(a, b, iters)
        print(f"{M}x{K}x{N}: torch " + (f"{ref:.4f} ms {flops / ref / 1e9:.2f} TF/s" if ref else "n/a"),
              flush=True)
        yield a, b, a.astype(np.float64) @ b.astype(np.float64), flops, ref


def layouts(b):
    """B as [K, N] ("nn", mm) and as [N, K] ("nt", a linear weight)."""
    yield "nn", b
    yield "nt", np.ascontiguousarray(b.T)


def report(g: "Gemm", ms: float, want, flops: float, ref) -> str:
    """TF/s, the ratio to torch and the check of g's result against float64."""
    err = float(np.abs(g.result() - want).max() / max(1.0, np.abs(want).max()))
    ratio = f" {ref / ms:.2f}x torch" if ref else ""
    return f"{ms:.4f} ms {flops / ms / 1e9:.2f} TF/s{ratio} " + \
        ("ok" if err < 1e-4 else f"WRONG {err:.2e}")


def ours(shapes, iters: int) -> None:
    _, dev = device()
    base = (SPEC / "gemm_vec4.wgsl").read_text()
    texts = {"spec": base}
    for a, b, want, flops, ref in problems(shapes, iters, 0):
        M, K = a.shape
        N = b.shape[1]
        for layout, bmat in layouts(b):
            for text_name, text in texts.items():
                for check_name, checks in CHECKS.items():
                    g = Gemm(dev, a, bmat, layout == "nt", text, checks)
                    line = (f"  {layout} {text_name:8s} {check_name:16s} split{g.split}: "
                            + report(g, g.time(iters), want, flops, ref))
                    if M * N <= 256 * 1024 and check_name != "no-loop-bounding":
                        back = g.time(iters, calls=21)
                        line += f" | 21 back to back: {back / 21:.4f} ms per call"
                    print(line, flush=True)
        rule = Gemm(dev, a, b, False, base, 0).split
        for split in sorted({1, 2, 3, 4, 8, 16} - {rule}):
            if split * 4 * K_STEP > K:
                continue
            g = Gemm(dev, a, b, False, base, 0, split)
            ms = g.time(iters)
            tile = g.time(iters, passes=slice(0, 1)) if split > 1 else ms
            print(f"  nn loop unchecked split{split} (rule: {rule}): "
                  + report(g, ms, want, flops, ref) + f" (tile pass alone {tile:.4f} ms)",
                  flush=True)


def swizzled(text: str, group: int) -> str:
    """The tile with workgroups walking the output in bands of `group` tile rows (each
    band column by column), so neighbouring workgroups share A's and B's panels in L2."""
    old = "  let m0 = wid.y * TILE;\n  let n0 = wid.x * TILE;\n"
    new = f"""  let tiles_n = (params.N + TILE - 1u) / TILE;
  let tiles_m = (params.M + TILE - 1u) / TILE;
  let id = wid.y * tiles_n + wid.x;
  let band = id / ({group}u * tiles_n);
  let first = band * {group}u;
  let rows = min(tiles_m - first, {group}u);
  let within = id % ({group}u * tiles_n);
  let m0 = (first + within % rows) * TILE;
  let n0 = within / rows * TILE;
"""
    assert old in text
    return text.replace(old, new)


def swizzle_sweep(shapes, iters: int) -> None:
    _, dev = device()
    base = (SPEC / "gemm_vec4.wgsl").read_text()
    for a, b, want, flops, ref in problems(shapes, iters, 3):
        for layout, bmat in layouts(b):
            for group in (0, 2, 4, 8, 16):
                text = swizzled(base, group) if group else base
                g = Gemm(dev, a, bmat, layout == "nt", text, 0)
                print(f"  {layout} unchecked band {group or '-'}: "
                      + report(g, g.time(iters), want, flops, ref), flush=True)


def split_sweep(shapes, iters: int) -> None:
    """The unchecked 128 tile at split-K 1..4 where the spec's rule does not split (the
    last wave of tiles may leave most SMs idle)."""
    _, dev = device()
    base = (SPEC / "gemm_vec4.wgsl").read_text()
    for a, b, want, flops, ref in problems(shapes, iters, 4):
        for layout, bmat in layouts(b):
            for split in (1, 2, 3, 4):
                g = Gemm(dev, a, bmat, layout == "nt", base, 0, split)
                print(f"  {layout} unchecked split {split}: "
                      + report(g, g.time(iters), want, flops, ref), flush=True)


def warp_8x4(text: str) -> str:
    """The tile with each warp (32 consecutive invocations) covering 8 x 4 threads of the
    16 x 16 grid instead of 16 x 2: its A reads touch 4 vec4s and its B reads 8 (one
    workgroup-memory wavefront each) instead of 2 and 16 (two wavefronts for B)."""
    head = "  let tid = lid.y * 16u + lid.x;\n"
    start = text.index(head) + len(head)
    end = text.index("\n}\n", start)
    body = text[start:end].replace("lid.x", "tx").replace("lid.y", "ty")
    remap = ("  let tx = tid % 8u + tid / 32u % 2u * 8u;\n"
             "  let ty = tid / 8u % 4u + tid / 64u * 4u;\n")
    return text[:start] + remap + body + text[end:]


def variant_sweep(shapes, iters: int) -> None:
    """Tile text variants of the spec's gemm_vec4, unchecked, at the spec's split: warps
    over 8 x 4 threads."""
    _, dev = device()
    base = (SPEC / "gemm_vec4.wgsl").read_text()
    texts = {"spec": base, "warp8x4": warp_8x4(base)}
    for a, b, want, flops, ref in problems(shapes, iters, 5):
        for layout, bmat in layouts(b):
            for name, text in texts.items():
                g = Gemm(dev, a, bmat, layout == "nt", text, 0)
                print(f"  {layout} {name:18s} split{g.split}: "
                      + report(g, g.time(iters), want, flops, ref), flush=True)


def wave_sweep(iters: int, small: bool = False) -> None:
    """How many 128-tile workgroups run at once: the unchecked gemm_vec4 at M = 1536,
    K = 768 and N giving 120 to 300 tiles; time steps up where a new round of workgroups
    starts."""
    _, dev = device()
    base = (SPEC / "gemm_vec4.wgsl").read_text()
    rng = np.random.default_rng(6)
    rows = 64 if small else 1536
    a = rng.standard_normal((rows, 768), dtype=np.float32)
    for n_tiles in ((1, 2) if small else (10, 11, 12, 16, 21, 22, 23, 24, 25)):
        b = rng.standard_normal((768, 128 * n_tiles), dtype=np.float32)
        g = Gemm(dev, a, b, False, base, 0, 1)
        want = a.astype(np.float64) @ b.astype(np.float64)
        flops = 2.0 * a.shape[0] * a.shape[1] * b.shape[1]
        print(f"  {rows}x768x{b.shape[1]} ({-(-rows // TILE) * n_tiles} tiles): "
              + report(g, g.time(iters), want, flops, None), flush=True)


class Unchecked(probe_gemm.Runner):
    """probe_gemm's runner with unchecked modules; with `storage`, on a device of its own
    allowed that much workgroup memory (WebGPU's default is 16 KiB; the H200's 48)."""

    def __init__(self, storage: int = 0):
        if not storage:
            super().__init__()
            return
        adapter = _adapter()
        limits = {k: adapter.limits[k] for k in ("max-buffer-size",
                                                 "max-storage-buffer-binding-size")}
        limits["max-compute-workgroup-storage-size"] = storage
        self.dev = adapter.request_device_sync(required_limits=limits,
                                               required_features=["timestamp-query"])

    def pipeline(self, code, buffers, params):
        usage = wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST
        pbuf = self.dev.create_buffer(size=32, usage=usage)
        self.dev.queue.write_buffer(pbuf, 0, np.array(params + [0] * (8 - len(params)),
                                                      dtype=np.uint32))
        pipe = self.dev.create_compute_pipeline(layout="auto", compute={
            "module": module(self.dev, code, 0), "entry_point": "main"})
        entries = [{"binding": 0, "resource": {"buffer": pbuf}}] + [
            {"binding": i + 1, "resource": {"buffer": b}} for i, b in enumerate(buffers)]
        return pipe, self.dev.create_bind_group(layout=pipe.get_bind_group_layout(0),
                                                entries=entries)


def generated_tiles(shapes, iters: int, variants: dict, splits=(1,), storage: int = 0,
                    seed: int = 2) -> None:
    """probe_gemm's generated tiles (B as [K, N]), unchecked, each at the given split-K
    counts, checked against float64 before it is timed."""
    r = Unchecked(storage)
    rng = np.random.default_rng(seed)
    for (M, K, N) in shapes:
        a = rng.standard_normal((M, K), dtype=np.float32)
        b = rng.standard_normal((K, N), dtype=np.float32)
        want = a.astype(np.float64) @ b.astype(np.float64)
        for name, v in variants.items():
            for split in splits:
                ms, got = probe_gemm.run_gemm(r, a, b, False, v, split, iters)
                err = float(np.abs(got - want).max() / max(1.0, np.abs(want).max()))
                print(f"  {M}x{K}x{N} tile {name} split{split}: {ms:.4f} ms "
                      f"{2.0 * M * N * K / ms / 1e9:.2f} TF/s "
                      + ("ok" if err < 1e-4 else f"WRONG {err:.2e}"), flush=True)


def tile_shapes(shapes, iters: int) -> None:
    """On the large shapes, unsplit: half-height and half-width tiles (a short last round
    of 128 tiles costs less) and K steps of 16 (32 KiB of double-buffered staging: beyond
    WebGPU's default limit)."""
    generated_tiles(shapes, iters, {
        "128x128 r8x8 k8": dict(bm=128, bn=128, tm=8, tn=8, bk=8),
        "128x128 r8x8 k16": dict(bm=128, bn=128, tm=8, tn=8, bk=16),
        "64x128 r8x8 k8": dict(bm=64, bn=128, tm=8, tn=8, bk=8),
        "64x128 r8x8 k16": dict(bm=64, bn=128, tm=8, tn=8, bk=16),
        "128x64 r8x8 k8": dict(bm=128, bn=64, tm=8, tn=8, bk=8)}, storage=32768, seed=7)


def small_tiles(shapes, iters: int) -> None:
    """At small output sizes, split K 1, 2 and 4 ways."""
    generated_tiles(shapes, iters, {
        "32x32 r4x4 k8": dict(bm=32, bn=32, tm=4, tn=4, bk=8),
        "32x64 r4x8 k8": dict(bm=32, bn=64, tm=4, tn=8, bk=8),
        "64x64 r4x4 k16": dict(bm=64, bn=64, tm=4, tn=4, bk=16),
        "64x64 r8x8 k8": dict(bm=64, bn=64, tm=8, tn=8, bk=8)}, splits=(1, 2, 4))


def ort_chains(iters: int) -> None:
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from codegen.bench.ort import WEBGPU, require_provider

    def session(nodes, inits, inputs, y_shape):
        graph = helper.make_graph(nodes, "probe", inputs,
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y_shape))],
                                  [numpy_helper.from_array(v, n) for n, v in inits.items()])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 9
        return require_provider(ort.InferenceSession(model.SerializeToString(),
                                                     providers=[WEBGPU]), WEBGPU)

    def slice_chain(M, K, N, length, w, as_input: bool):
        inits = {"s0": np.array([0], np.int64), "s1": np.array([K], np.int64),
                 "ax": np.array([-1], np.int64)}
        inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [M, K])]
        if as_input:
            inputs.append(helper.make_tensor_value_info("w", TensorProto.FLOAT, [K, N]))
        else:
            inits["w"] = w
        nodes, cur = [], "x"
        for k in range(length):
            if k:
                nodes.append(helper.make_node("Slice", [cur, "s0", "s1", "ax"], [f"s{k}_"]))
                cur = f"s{k}_"
            out = "y" if k == length - 1 else f"t{k}"
            nodes.append(helper.make_node("MatMul", [cur, "w"], [out]))
            cur = out
        return session(nodes, inits, inputs, [M, N])

    def pair_chain(M, K, N, pairs, w1, w2):
        inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [M, K])]
        nodes, cur = [], "x"
        for k in range(pairs):
            nodes.append(helper.make_node("MatMul", [cur, "w1"], [f"h{k}"]))
            out = "y" if k == pairs - 1 else f"t{k}"
            nodes.append(helper.make_node("MatMul", [f"h{k}", "w2"], [out]))
            cur = out
        return session(nodes, {"w1": w1, "w2": w2}, inputs, [M, K])

    def estimate(one, many, feed, extra_nodes):
        for _ in range(3):
            one.run(None, feed)
            many.run(None, feed)
        est, longs = [], []
        for _ in range(iters):
            t0 = time.perf_counter()
            one.run(None, feed)
            t1 = time.perf_counter()
            many.run(None, feed)
            t2 = time.perf_counter()
            est.append(((t2 - t1) - (t1 - t0)) * 1e3 / extra_nodes)
            longs.append((t2 - t1) * 1e3)
        return statistics.median(est), statistics.median(longs)

    rng = np.random.default_rng(1)
    for (M, K, N) in [(1576, 768, 2304), (1576, 768, 3072)]:
        flops = 2.0 * M * K * N
        x = rng.standard_normal((M, K), dtype=np.float32)
        w = rng.standard_normal((K, N), dtype=np.float32)
        w2 = rng.standard_normal((N, K), dtype=np.float32)
        for as_input in (False, True):
            feed = {"x": x, **({"w": w} if as_input else {})}
            one, many = slice_chain(M, K, N, 1, w, as_input), slice_chain(M, K, N, 21, w, as_input)
            per, long = estimate(one, many, feed, 20)
            print(f"ORT {M}x{K}x{N} slice chain, weight as {'input' if as_input else 'initializer'}: "
                  f"{per:.4f} ms per MatMul ({flops / per / 1e9:.1f} TF/s); 21-node run {long:.3f} ms",
                  flush=True)
        one, many = pair_chain(M, K, N, 1, w, w2), pair_chain(M, K, N, 11, w, w2)
        per, long = estimate(one, many, {"x": x}, 10)
        print(f"ORT {M}x{K}x{N} + {M}x{N}x{K} pair chain: {per:.4f} ms per pair "
              f"({2 * flops / per / 1e9:.1f} TF/s); 11-pair run {long:.3f} ms", flush=True)


def main() -> None:
    small = "small" in sys.argv[1:]
    print("adapter:", adapter_line(), flush=True)
    if "splits" in sys.argv[1:]:
        split_sweep([(200, 96, 520)] if small else
                    [(1576, 768, 3072), (1576, 768, 2304), (512, 2048, 8192)], 3 if small else 20)
        return
    if "variants" in sys.argv[1:]:
        wave_sweep(3 if small else 20, small)
        large = [(200, 96, 520)] if small else [(4096, 4096, 4096), (512, 2048, 8192),
                                                 (1576, 768, 3072), (1576, 768, 2304)]
        tile_shapes(large, 3 if small else 20)
        variant_sweep(large, 3 if small else 20)
        return
    if "swizzle" in sys.argv[1:]:
        swizzle_sweep([(200, 96, 520)] if small else
                      [(4096, 4096, 4096), (512, 2048, 8192), (1576, 768, 3072)], 3 if small else 20)
        return
    if small:
        ours([(70, 36, 52), (200, 96, 136)], 3)
        small_tiles([(70, 36, 52)], 3)
        return
    ours([(4096, 4096, 4096), (512, 2048, 8192), (1576, 768, 3072), (1576, 768, 2304),
          (196, 768, 768)], 20)
    small_tiles([(196, 768, 768), (196, 768, 2304), (196, 768, 3072), (196, 3072, 768)], 20)
    ort_chains(20)


if __name__ == "__main__":
    main()
