"""The 196-row GEMMs (ViT-B at batch 1; the 16x16 patch embed is the same 196 x 768 x 768
GEMM) on the H200: the matmul spec's gemm_small beside variants of its text, and how each
compares with ORT's WebGPU MatMul when timed the way ORT's chains are (figures in
docs/performance.md, "One timed pass, gemm_small loads two steps ahead").

Variants, each an edit of gemm_small.wgsl: "one step ahead" (the kernel before it issued
its global loads two K steps ahead), "padded rows" (staged k rows of 9 vec4s instead of
8), "lanes by row" (a warp loads 32 consecutive rows). Two other variants measured in the
same runs were whole kernels of their own and were dropped once not taken: K groups inside
the workgroup and K steps of 16 (the probe as of commit 9d3076d has them).
First the cost of a timed pass with an empty kernel in it; then each variant, checked
against float64, timed (GPU timestamps, median of 20) one call per timing with a pass per
dispatch and 21 calls back to back in one pass (per call: the time / 21), the way our
runtime records a graph and ORT's per-op figure is a chain's. ORT: `opgen bench`'s own
chain estimate for mm and linear. `large`: the 128 tile (gemm_vec4) beside the same
loading two steps ahead, on the large shapes. Usage: python
benchmarks/probe_small_gemm.py [small] [large] ("small" runs shapes lavapipe finishes in
seconds).
"""

import sys
from types import SimpleNamespace

import torch
from probe_gemm import Runner  # benchmarks/
from probe_tile_checks import SPEC, Gemm, layouts, problems, report, spec_split

from codegen.executors.wgpu_device import adapter_line, device
from codegen.specs.matmul.matmul import SMALL_TILE

# gemm_small's own code: its tile helper, emitted last in its declaration block (the
# block's earlier helpers hold lines the edits below would also match)
SMALL_TILE_CODE = "// Shared helpers (gemm_small_tile.wgsl).\n"


def edited(kernel_file: str, edits, after: str = SMALL_TILE_CODE) -> str:
    """The spec's `kernel_file` text with each (old, new) edit made wherever `old` occurs
    (it must occur) below the line `after` ("" for the whole text). Every variant is
    checked against float64 before it is timed."""
    text = (SPEC / kernel_file).read_text()
    at = text.index(after) + len(after) if after else 0
    head, body = text[:at], text[at:]
    for old, new in edits:
        assert old in body, (kernel_file, old)
        body = body.replace(old, new)
    return head + body


def two_ahead(load: str, store: str) -> list[tuple[str, str]]:
    """The edits that turn a tile kernel loading one K step ahead (gemm_tile's loop, with
    its `load` and `store` functions) into one loading two steps ahead, as gemm_small does;
    reversed, they turn gemm_small back into its one-step form."""
    return [
        (f"    {store}({load}(z, m0, n0, k_begin, k_end, tid), 0u, tid);\n  }}\n",
         f"    {store}({load}(z, m0, n0, k_begin, k_end, tid), 0u, tid);\n  }}\n"
         "  var next: Staged;  // the next step's slices, loaded a step earlier\n"
         "  if (k_begin + K_STEP < k_end) {\n"
         f"    next = {load}(z, m0, n0, k_begin + K_STEP, k_end, tid);\n  }}\n"),
        (f"    var next: Staged;\n    if (more) {{\n"
         f"      next = {load}(z, m0, n0, k0 + K_STEP, k_end, tid);\n    }}\n",
         f"    var after: Staged;\n    if (k0 + 2u * K_STEP < k_end) {{\n"
         f"      after = {load}(z, m0, n0, k0 + 2u * K_STEP, k_end, tid);\n    }}\n"),
        (f"      {store}(next, buffer, tid);\n    }}\n    workgroupBarrier();",
         f"      {store}(next, buffer, tid);\n    }}\n    next = after;\n    workgroupBarrier();"),
    ]


def one_ahead_text() -> str:
    """gemm_small as it was before it loaded two steps ahead."""
    return edited("gemm_small.wgsl", [(new, old) for old, new in two_ahead("small_load", "small_store")])


def lanes_by_row_text() -> str:
    """gemm_small with its A (and [N, K] B) loads mapped so a warp's 32 threads take 32
    consecutive rows at one k quad: its transposing stores to workgroup memory then hit 32
    banks instead of two threads per bank."""
    return edited("gemm_small.wgsl", [
        ("  let row = tid / 2u;\n  let k = k0 + tid % 2u * 4u;",
         "  let row = tid % 32u;\n  let k = k0 + tid / 32u * 4u;"),
        ("  let row = tid / 2u;\n  let at = buffer + tid % 2u * 4u",
         "  let row = tid % 32u;\n  let at = buffer + tid / 32u * 4u")])


def padded_rows_text() -> str:
    """gemm_small with each staged k row padded from 8 to 9 vec4s, so the two threads that
    store one row's k quads 0..3 and 4..7 hit different banks (36 floats apart per k
    instead of 32)."""
    return edited("gemm_small.wgsl", [
        ("const SMALL_STAGE: u32 = 64u;", "const ROW: u32 = 9u;\nconst SMALL_STAGE: u32 = 72u;"),
        ("array<vec4<f32>, 128>", "array<vec4<f32>, 144>"),
        ("3u * SMALL_TILE / 4u", "3u * ROW"), ("SMALL_TILE / 2u", "2u * ROW"),
        ("SMALL_TILE / 4u", "ROW"),
        ("b_small[buffer + tid] = s.b;", "b_small[buffer + tid / 8u * ROW + tid % 8u] = s.b;")])


def large(shapes, iters: int) -> None:
    """The 128 tile as the spec has it beside the same loading two steps ahead."""
    _, dev = device()
    texts = {"gemm_vec4": (SPEC / "gemm_vec4.wgsl").read_text(),
             "ahead 2": edited("gemm_vec4.wgsl", two_ahead("stage_load", "stage_store"),
                               after="")}
    for a, b, want, flops, ref in problems(shapes, iters, 7):
        for layout, bmat in layouts(b):
            for name, text in texts.items():
                g = Gemm(dev, a, bmat, layout == "nt", text, 0)
                print(f"  {layout} {name} split{g.split}: " + report(g, g.time(iters), want, flops, ref),
                      flush=True)


def ort_line(M: int, K: int, N: int, iters: int) -> str:
    from codegen.bench.ort import available, time_ort

    if not available():
        return "ORT WebGPU: not installed"
    g = torch.Generator().manual_seed(5)
    x, w = torch.randn(M, K, generator=g), torch.randn(K, N, generator=g)
    mm = time_ort("aten.mm.default", (x, w), iters, 3)
    linear = time_ort("aten.linear.default", (x, w.t().contiguous()), iters, 3)
    fmt = lambda t: f"{t.ms:.4f} ± {t.spread_ms:.4f} ms" if t else "n/a"  # noqa: E731
    return f"ORT WebGPU (chain estimate): mm {fmt(mm)}, linear {fmt(linear)}"


EMPTY = "@compute @workgroup_size(64) fn main() {}"


def floor(dev, iters: int) -> None:
    """What a timed pass costs with (next to) nothing in it: one workgroup that does
    nothing, once and 21 times in the pass."""
    pipe = dev.create_compute_pipeline(layout="auto", compute={
        "module": dev.create_shader_module(code=EMPTY), "entry_point": "main"})
    runner = SimpleNamespace(dev=dev)
    for calls in (1, 21):
        ms = Runner.time(runner, [(pipe, None, (1, 1, 1))], iters, calls, one_pass=True)
        print(f"empty kernel, {calls} in one pass: {ms:.4f} ms ({ms / calls:.4f} per call)",
              flush=True)


def main() -> None:
    small = "small" in sys.argv[1:]
    iters = 3 if small else 20
    if "large" in sys.argv[1:]:
        print("adapter:", adapter_line(), flush=True)
        large([(200, 96, 136)] if small else [(4096, 4096, 4096), (1576, 768, 2304),
                                              (1576, 768, 3072), (512, 2048, 8192)], iters)
        return
    shapes = [(40, 64, 136)] if small else \
        [(196, 768, 768), (196, 768, 2304), (196, 768, 3072), (196, 3072, 768)]
    print("adapter:", adapter_line(), flush=True)
    _, dev = device()
    floor(dev, iters)
    spec_text = (SPEC / "gemm_small.wgsl").read_text()
    variants = [("gemm_small", spec_text), ("one step ahead", one_ahead_text()),
                ("padded rows", padded_rows_text()), ("lanes by row", lanes_by_row_text())]

    for a, b, want, flops, ref in problems(shapes, iters, 6):
        M, K = a.shape
        N = b.shape[1]
        rule = spec_split(M, N, K, SMALL_TILE)
        for layout, bmat in layouts(b):
            for name, text in variants:
                for split in sorted({1, 2, rule}):
                    g = Gemm(dev, a, bmat, layout == "nt", text, 0, split, tile=SMALL_TILE)
                    one = g.time(iters, calls=21, one_pass=True) / 21
                    print(f"  {layout} {name} split{split}{' (rule)' if split == rule else ''}: "
                          + report(g, g.time(iters), want, flops, ref)
                          + f" | 21 back to back in one pass: {one:.4f} ms per call",
                          flush=True)
        if not small:
            print("  " + ort_line(M, K, N, iters), flush=True)


if __name__ == "__main__":
    main()
