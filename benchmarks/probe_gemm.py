"""GEMM kernel variants on the selected adapter, beside torch CUDA (TF32 off) when present.

The evidence behind the tile shapes of the matmul spec (docs/performance.md, "GEMM"):
register-blocked tiles of several sizes, B as [K, N] (mm/bmm) or [N, K] (a linear
weight), K split across workgroups when there are few tiles, and the GEMV route for
M <= 8. Each variant's result is checked against torch before it is timed (GPU
timestamps, median of the runs). Usage: python benchmarks/probe_gemm.py [small]
("small" runs shapes lavapipe finishes in seconds).
"""

import sys

import numpy as np
import torch
import wgpu

from codegen.executors.wgpu_device import adapter_line, device

PARAMS = """struct Params { M: u32, N: u32, K: u32, batch_a: u32, batch_b: u32, k_chunk: u32, splits: u32, pad: u32 }
@group(0) @binding(0) var<uniform> params: Params;
"""


def gemm_kernel(bm: int, bn: int, tm: int, tn: int, bk: int, b_rows_n: bool, vec_loads: bool) -> str:
    """C[z][M][N] (+)= A[z][M][K] @ B, B as [K][N] (b_rows_n False) or [N][K] (True)."""
    wx, wy = bn // tn, bm // tm
    threads = wx * wy
    elem = "vec4<f32>" if vec_loads else "f32"
    lines = [PARAMS,
             f"@group(0) @binding(1) var<storage, read> a: array<{elem}>;",
             f"@group(0) @binding(2) var<storage, read> b: array<{elem}>;",
             "@group(0) @binding(3) var<storage, read_write> c: array<f32>;",
             f"const BM = {bm}u; const BN = {bn}u; const BK = {bk}u;",
             f"var<workgroup> a_sh: array<vec4<f32>, {2 * bk * bm // 4}>;",
             f"var<workgroup> b_sh: array<vec4<f32>, {2 * bk * bn // 4}>;"]
    # loads: a row segment of 4 k (A, and B as [N][K]) or a vec4 of 4 n (B as [K][N])
    lines.append(_row_load("load_a", "a", "params.M", vec_loads))
    if b_rows_n:
        lines.append(_row_load("load_b", "b", "params.N", vec_loads))
    else:
        lines.append(f"""fn load_b(base: u32, k: u32, n: u32) -> vec4<f32> {{
  if (k >= params.K || n >= params.N) {{ return vec4<f32>(); }}
  let i = base + k * params.N + n;
  {"return b[i / 4u];" if vec_loads else "return vec4<f32>(b[i], select(0.0, b[i + 1u], n + 1u < params.N), select(0.0, b[i + 2u], n + 2u < params.N), select(0.0, b[i + 3u], n + 3u < params.N));"}
}}""")
    a_per = bm * bk // 4 // threads  # vec4 loads of A per thread per step
    b_per = bn * bk // 4 // threads
    assert a_per >= 1 and b_per >= 1, (bm, bn, bk, threads)
    body = [f"@compute @workgroup_size({wx}, {wy}, 1)",
            "fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {",
            f"  let tid = lid.y * {wx}u + lid.x;",
            "  let split = wid.z % params.splits;",
            "  let z = wid.z / params.splits;",
            "  let a_base = z * params.batch_a;",
            "  let b_base = z * params.batch_b;",
            "  let m0 = wid.y * BM;",
            "  let n0 = wid.x * BN;",
            "  let k_begin = split * params.k_chunk;",
            "  let k_end = min(params.K, k_begin + params.k_chunk);"]
    # loader coordinates
    for p in range(a_per):
        body.append(f"  let la{p} = tid + {p * threads}u;")
        body.append(f"  let la{p}_m = la{p} / (BK / 4u); let la{p}_k = la{p} % (BK / 4u) * 4u;")
    for p in range(b_per):
        body.append(f"  let lb{p} = tid + {p * threads}u;")
        if b_rows_n:
            body.append(f"  let lb{p}_n = lb{p} / (BK / 4u); let lb{p}_k = lb{p} % (BK / 4u) * 4u;")
        else:
            body.append(f"  let lb{p}_k = lb{p} / (BN / 4u); let lb{p}_n = lb{p} % (BN / 4u);")

    def fetch(k0: str) -> list[str]:
        out = []
        for p in range(a_per):
            out.append(f"va{p} = load_a(a_base, m0 + la{p}_m, {k0} + la{p}_k, k_end);")
        for p in range(b_per):
            if b_rows_n:
                out.append(f"vb{p} = load_a_like_b(b_base, n0 + lb{p}_n, {k0} + lb{p}_k, k_end);")
            else:
                out.append(f"vb{p} = load_b(b_base, {k0} + lb{p}_k, n0 + 4u * lb{p}_n);")
        return out

    def store(buf: str) -> list[str]:
        out = []
        for p in range(a_per):
            for j, comp in enumerate("xyzw"):
                out.append(f"a_sh[{buf} + (la{p}_k + {j}u) * (BM / 4u) + la{p}_m / 4u][la{p}_m % 4u] = va{p}.{comp};")
        for p in range(b_per):
            if b_rows_n:
                for j, comp in enumerate("xyzw"):
                    out.append(f"b_sh[{buf} + (lb{p}_k + {j}u) * (BN / 4u) + lb{p}_n / 4u][lb{p}_n % 4u] = vb{p}.{comp};")
            else:
                out.append(f"b_sh[{buf} + lb{p}_k * (BN / 4u) + lb{p}_n] = vb{p};")
        return out

    for p in range(a_per):
        body.append(f"  var va{p} = vec4<f32>();")
    for p in range(b_per):
        body.append(f"  var vb{p} = vec4<f32>();")
    body.append("  if (k_begin < k_end) {")
    body += ["    " + s for s in fetch("k_begin") + store("0u")]
    body.append("  }")
    body.append("  workgroupBarrier();")
    ga, gb = tm // 4, tn // 4
    for i in range(tm):
        for j in range(gb):
            body.append(f"  var acc{i}_{j} = vec4<f32>();")
    body += ["  var buf = 0u;",
             f"  let tile = {bk * bm // 4}u;",  # bm == bn assumed for one buffer stride below
             "  for (var k0 = k_begin; k0 < k_end; k0 += BK) {",
             "    let more = k0 + BK < k_end;",
             "    if (more) {"]
    body += ["      " + s for s in fetch("(k0 + BK)")]
    body += ["    }",
             "    for (var k = 0u; k < BK; k++) {"]
    for g in range(ga):
        body.append(f"      let av{g} = a_sh[buf + k * (BM / 4u) + lid.y + {g * wy}u];")
    for g in range(gb):
        body.append(f"      let bv{g} = b_sh[bbuf(buf) + k * (BN / 4u) + lid.x + {g * wx}u];")
    for i in range(tm):
        g, comp = divmod(i, 4)
        for j in range(gb):
            body.append(f"      acc{i}_{j} = fma(vec4<f32>(av{g}.{'xyzw'[comp]}), bv{j}, acc{i}_{j});")
    body += ["    }",
             "    buf = tile - buf;",
             "    if (more) {"]
    body += ["      " + s for s in store("buf") if "a_sh" in s]
    body += ["      " + s.replace("b_sh[buf", "b_sh[bbuf(buf)") for s in store("buf") if "b_sh" in s]
    body += ["    }",
             "    workgroupBarrier();",
             "  }"]
    for i in range(tm):
        g, comp = divmod(i, 4)
        body.append(f"  let row{i} = m0 + 4u * (lid.y + {g * wy}u) + {comp}u;")
        for j in range(gb):
            body.append(f"  store(row{i}, n0 + 4u * (lid.x + {j * wx}u), acc{i}_{j}, split, z);")
    body.append("}")
    store_fn = """fn store(m: u32, n: u32, v: vec4<f32>, split: u32, z: u32) {
  if (m >= params.M) { return; }
  let base = ((split + z) * params.M + m) * params.N;  // one batch in this probe
  for (var j = 0u; j < 4u; j++) {
    if (n + j < params.N) { c[base + n + j] = v[j]; }
  }
}"""
    bbuf = f"fn bbuf(buf: u32) -> u32 {{ return buf / {bk * bm // 4}u * {bk * bn // 4}u; }}"
    lines.append(store_fn)
    lines.append(bbuf)
    if b_rows_n:
        lines.append(_row_load("load_a_like_b", "b", "params.N", vec_loads))
        lines = [ln for ln in lines if not ln.startswith("fn load_b(")]
    return "\n".join(lines + body)


def _row_load(name: str, buf: str, rows: str, vec_loads: bool) -> str:
    if vec_loads:
        get = f"return {buf}[(base + r * params.K + k) / 4u];"
    else:
        get = (f"let i = base + r * params.K + k; return vec4<f32>({buf}[i], select(0.0, {buf}[i + 1u], k + 1u < end), "
               f"select(0.0, {buf}[i + 2u], k + 2u < end), select(0.0, {buf}[i + 3u], k + 3u < end));")
    return f"""fn {name}(base: u32, r: u32, k: u32, end: u32) -> vec4<f32> {{
  if (r >= {rows} || k >= end) {{ return vec4<f32>(); }}
  {get}
}}"""


SPLIT_SUM = PARAMS + """
@group(0) @binding(1) var<storage, read> part: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.y * nwg.x * 256u + gid.x;
  let n = params.M * params.N;  // one batch in this probe
  if (i >= n) { return; }
  var s = 0.0;
  for (var p = 0u; p < params.splits; p++) { s += part[p * n + i]; }
  c[i] = s;
}
"""

GEMV_NT = PARAMS + """
@group(0) @binding(1) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> w: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;
const ROWS = ROWS_PER_WGu;  // weight rows per workgroup
const LANES = 256u / ROWS;  // threads per row
const MAXM = 8u;
var<workgroup> red: array<f32, 256>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = t / LANES;
  let lane = t % LANES;
  let n = (wid.y * nwg.x + wid.x) * ROWS + row;
  let k4 = params.K / 4u;
  var acc: array<f32, 8>;
  if (n < params.N) {
    for (var k = lane; k < k4; k += LANES) {
      let wv = w[n * k4 + k];
      for (var m = 0u; m < params.M; m++) {
        acc[m] += dot(x[m * k4 + k], wv);
      }
    }
  }
  for (var m = 0u; m < params.M; m++) {
    red[t] = acc[m];
    workgroupBarrier();
    for (var s = LANES / 2u; s > 0u; s >>= 1u) {
      if (lane < s) { red[t] += red[t + s]; }
      workgroupBarrier();
    }
    if (lane == 0u && n < params.N) { c[m * params.N + n] = red[t]; }
    workgroupBarrier();
  }
}
"""


class Runner:
    def __init__(self):
        _, self.dev = device()

    def buffer(self, array: np.ndarray | None = None, nbytes: int = 0):
        usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
        if array is not None:
            nbytes = array.nbytes
        buf = self.dev.create_buffer(size=max(16, -(-nbytes // 16) * 16), usage=usage)
        if array is not None:
            self.dev.queue.write_buffer(buf, 0, np.ascontiguousarray(array))
        return buf

    def pipeline(self, code: str, buffers: list, params: list[int]):
        pbuf = self.dev.create_buffer(size=32, usage=wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST)
        self.dev.queue.write_buffer(pbuf, 0, np.array(params + [0] * (8 - len(params)), dtype=np.uint32))
        module = self.dev.create_shader_module(code=code)
        pipe = self.dev.create_compute_pipeline(layout="auto", compute={"module": module, "entry_point": "main"})
        entries = [{"binding": 0, "resource": {"buffer": pbuf}}] + [
            {"binding": i + 1, "resource": {"buffer": b}} for i, b in enumerate(buffers)]
        return pipe, self.dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=entries)

    def time(self, passes: list, iters: int, calls: int = 1, warmup: int = 0,
             one_pass: bool = False) -> float:
        """Median ms of `iters` timings, each around `calls` back-to-back runs of the passes
        (GPU timestamps), after `warmup` untimed runs; all in one command buffer. Each
        (pipeline, bind group or None, grid) dispatch is a compute pass of its own, or with
        `one_pass` each timing's dispatches share one pass."""
        dev = self.dev
        qs = dev.create_query_set(type=wgpu.QueryType.timestamp, count=2 * iters)
        resolve = dev.create_buffer(size=16 * iters, usage=wgpu.BufferUsage.QUERY_RESOLVE | wgpu.BufferUsage.COPY_SRC)
        enc = dev.create_command_encoder()
        for it in range(-warmup, iters):
            dispatches = [d for _ in range(calls) for d in passes]
            groups = [dispatches] if one_pass else [[d] for d in dispatches]
            for g, group_dispatches in enumerate(groups):
                writes = {}
                if it >= 0 and g == 0:
                    writes["beginning_of_pass_write_index"] = 2 * it
                if it >= 0 and g == len(groups) - 1:
                    writes["end_of_pass_write_index"] = 2 * it + 1
                cp = enc.begin_compute_pass(
                    timestamp_writes={"query_set": qs, **writes} if writes else None)
                for pipe, bind_group, grid in group_dispatches:
                    cp.set_pipeline(pipe)
                    if bind_group is not None:
                        cp.set_bind_group(0, bind_group)
                    cp.dispatch_workgroups(*grid)
                cp.end()
        enc.resolve_query_set(qs, 0, 2 * iters, resolve, 0)
        dev.queue.submit([enc.finish()])
        ticks = np.frombuffer(bytes(dev.queue.read_buffer(resolve)), dtype=np.uint64).astype(np.int64)
        return float(np.median(ticks[1::2] - ticks[0::2])) * 1e-6

    def read(self, buf, count: int) -> np.ndarray:
        return np.frombuffer(bytes(self.dev.queue.read_buffer(buf)), dtype=np.float32)[:count]


def run_gemm(r: Runner, a, b, b_rows_n: bool, variant: dict, splits: int, iters: int):
    M, K = a.shape
    N = b.shape[0] if b_rows_n else b.shape[1]
    bm, bn = variant["bm"], variant["bn"]
    vec = K % 4 == 0 and (b_rows_n or N % 4 == 0)
    code = gemm_kernel(variant["bm"], variant["bn"], variant["tm"], variant["tn"], variant["bk"], b_rows_n, vec)
    ab, bb = r.buffer(a), r.buffer(b)
    k_chunk = -(-(-(-K // splits)) // variant["bk"]) * variant["bk"]
    splits = -(-K // k_chunk)
    out = r.buffer(nbytes=4 * M * N * splits)
    params = [M, N, K, 0, 0, k_chunk, splits]
    grid = (-(-N // bn), -(-M // bm), splits)
    passes = [(*r.pipeline(code, [ab, bb, out], params), grid)]
    result = out
    if splits > 1:
        c = r.buffer(nbytes=4 * M * N)
        passes.append((*r.pipeline(SPLIT_SUM, [out, c], params), (-(-M * N // 256), 1, 1)))
        result = c
    ms = r.time(passes, iters)
    return ms, r.read(result, M * N).reshape(M, N)


def run_gemv(r: Runner, x, w, rows: int, iters: int):
    M, K = x.shape
    N = w.shape[0]
    out = r.buffer(nbytes=4 * M * N)
    code = GEMV_NT.replace("ROWS_PER_WG", str(rows))
    groups = -(-N // rows)
    passes = [(*r.pipeline(code, [r.buffer(x), r.buffer(w), out], [M, N, K]), (min(groups, 65535), -(-groups // 65535), 1))]
    return r.time(passes, iters), r.read(out, M * N).reshape(M, N)


VARIANTS = {
    "t128x128_r8x8_k8": dict(bm=128, bn=128, tm=8, tn=8, bk=8),
    "t64x64_r4x4_k16": dict(bm=64, bn=64, tm=4, tn=4, bk=16),
    "t128x64_r8x8_k8": dict(bm=128, bn=64, tm=8, tn=8, bk=8),
    "t64x128_r8x8_k8": dict(bm=64, bn=128, tm=8, tn=8, bk=8),
}
SHAPES = [(4096, 4096, 4096), (1576, 768, 2304), (1576, 768, 3072), (512, 2048, 8192), (196, 768, 768)]
SMALL = [(70, 36, 50), (33, 64, 96), (7, 12, 5)]


def torch_ms(a, b, iters: int) -> float | None:
    if not torch.cuda.is_available():
        return None
    torch.backends.cuda.matmul.allow_tf32 = False
    ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
    for _ in range(3):
        ta @ tb
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        ta @ tb
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / iters


def main() -> None:
    small = "small" in sys.argv[1:]
    iters = 3 if small else 20
    r = Runner()
    print("adapter:", adapter_line())
    rng = np.random.default_rng(0)
    for (M, K, N) in (SMALL if small else SHAPES):
        a = rng.standard_normal((M, K), dtype=np.float32)
        b = rng.standard_normal((K, N), dtype=np.float32)
        want = (a.astype(np.float64) @ b.astype(np.float64))
        flops = 2.0 * M * N * K
        ref = torch_ms(a, b, iters)
        line = f"{M}x{K}x{N}: torch " + (f"{flops / ref / 1e9:.2f} TF/s" if ref else "n/a")
        print(line)
        tiles128 = -(-M // 128) * -(-N // 128)
        for name, v in VARIANTS.items():
            tiles = -(-M // v["bm"]) * -(-N // v["bn"])
            for splits in sorted({1, max(1, min(8, 264 // max(tiles, 1)))}):
                for layout in ("nn", "nt"):
                    bmat = b if layout == "nn" else np.ascontiguousarray(b.T)
                    ms, got = run_gemm(r, a, bmat, layout == "nt", v, splits, iters)
                    err = float(np.abs(got - want).max() / max(1.0, np.abs(want).max()))
                    ok = "ok" if err < 1e-4 else f"WRONG {err:.2e}"
                    ratio = f" {ref / ms:.2f}x torch" if ref else ""
                    print(f"  {name} split{splits} {layout}: {ms:.4f} ms {flops / ms / 1e9:.2f} TF/s{ratio} {ok}")
        del tiles128
    for (M, K, N) in ([(1, 64, 40), (3, 32, 17)] if small else [(1, 2048, 8192), (4, 2048, 8192), (8, 4096, 4096)]):
        x = rng.standard_normal((M, K), dtype=np.float32)
        w = rng.standard_normal((N, K), dtype=np.float32)
        want = x.astype(np.float64) @ w.astype(np.float64).T
        ref = torch_ms(x, np.ascontiguousarray(w.T), iters) if not small else None
        for rows in (1, 2, 4, 8):
            ms, got = run_gemv(r, x, w, rows, iters)
            err = float(np.abs(got - want).max() / max(1.0, np.abs(want).max()))
            gbs = 4.0 * (N * K + M * K + M * N) / ms / 1e6
            ratio = f" {ref / ms:.2f}x torch ({4.0 * N * K / ref / 1e6:.0f} GB/s)" if ref else ""
            print(f"gemv {M}x{K}x{N} rows{rows}: {ms:.4f} ms {gbs:.0f} GB/s{ratio} "
                  + ("ok" if err < 1e-4 else f"WRONG {err:.2e}"))


if __name__ == "__main__":
    main()
