"""The 196-row GEMMs (ViT-B at batch 1; the 16x16 patch embed is the same 196 x 768 x 768
GEMM) on the H200: the matmul spec's gemm_small beside a variant that splits K inside
the workgroup, and how each compares with ORT's WebGPU MatMul when timed the way ORT's
chains are (figures in docs/performance.md).

gemm_small runs 64 threads per 32x32 tile with K steps of 8, and splits K across
workgroups into a partial buffer that a second dispatch sums. The variant ("kgroups G")
runs G groups of those 64 threads in one workgroup (8 x 8 x G): each K step stages a slab
of G * 8 of K for the whole tile, group g multiplies its 8, and the groups' 4x4 sums are
added through workgroup memory at the end, so the tile has G times the threads in
flight and a G-th of the barriers, with no second dispatch.
Each variant is checked against float64, then timed (GPU timestamps, median of 20) one
call per timing and 21 calls back to back per timing (per call: the time / 21), the way
ORT's per-op figure is a chain's. ORT: `opgen bench`'s own chain estimate for mm and
linear. `large`: the 128 tile (gemm_vec4) beside the same with its loads two steps
ahead, on the large shapes. Usage: python benchmarks/probe_small_gemm.py [small] [large]
("small" runs shapes lavapipe finishes in seconds).
"""

import sys
from types import SimpleNamespace

import torch
from probe_gemm import Runner  # benchmarks/
from probe_tile_checks import SPEC, Gemm, layouts, problems

from codegen.executors.wgpu_device import adapter_line, device

SMALL_TILE = 32
END = "// @opgen-end declarations\n"

KGROUPS_BODY = """
const SMALL_TILE: u32 = 32u;
const GROUPS: u32 = {groups}u;  // K groups: lid.z
const SLAB: u32 = {slab}u;  // K per staged step (K_STEP * GROUPS)
const SMALL_STAGE: u32 = {stage}u;  // vec4s per staged slab (SLAB * SMALL_TILE / 4)

var<workgroup> a_small: array<vec4<f32>, {buffers}>;  // [buffer][k][m / 4]
var<workgroup> b_small: array<vec4<f32>, {buffers}>;  // [buffer][k][n / 4]

// Thread tid loads A row tid % 32, k (tid / 32) * 4..+3 (a warp stores 32 consecutive
// rows: no bank conflicts); B as [N][K] likewise, or as [K][N] row tid / 8, columns
// (tid % 8) * 4..+3.
fn slab_load(z: u32, m0: u32, n0: u32, k0: u32, end: u32, tid: u32) -> Staged {{
  let row = tid % SMALL_TILE;
  let k = k0 + tid / SMALL_TILE * 4u;
  var s: Staged;
  s.a = load_a(z, m0 + row, k, end);
  if (B_IS_NK) {{
    s.b = load_b(z, n0 + row, k, end);
  }} else {{
    s.b = load_b(z, k0 + tid / 8u, n0 + tid % 8u * 4u, end);
  }}
  return s;
}}

fn slab_store(s: Staged, buffer: u32, tid: u32) {{
  let row = tid % SMALL_TILE;
  let at = buffer + tid / SMALL_TILE * 4u * (SMALL_TILE / 4u) + row / 4u;
  let lane = row % 4u;
  a_small[at][lane] = s.a.x;
  a_small[at + SMALL_TILE / 4u][lane] = s.a.y;
  a_small[at + SMALL_TILE / 2u][lane] = s.a.z;
  a_small[at + 3u * SMALL_TILE / 4u][lane] = s.a.w;
  if (B_IS_NK) {{
    b_small[at][lane] = s.b.x;
    b_small[at + SMALL_TILE / 4u][lane] = s.b.y;
    b_small[at + SMALL_TILE / 2u][lane] = s.b.z;
    b_small[at + 3u * SMALL_TILE / 4u][lane] = s.b.w;
  }} else {{
    b_small[buffer + tid] = s.b;
  }}
}}

// Slot i of the groups' partial sums: a_small, then b_small.
fn park(i: u32, v: vec4<f32>) {{
  if (i < 2u * SMALL_STAGE) {{
    a_small[i] = v;
  }} else {{
    b_small[i - 2u * SMALL_STAGE] = v;
  }}
}}

fn parked(i: u32) -> vec4<f32> {{
  if (i < 2u * SMALL_STAGE) {{
    return a_small[i];
  }}
  return b_small[i - 2u * SMALL_STAGE];
}}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {{
  let t = lid.y * 8u + lid.x;
  let tid = lid.z * 64u + t;
  let slice = wid.z % params.split;
  let z = wid.z / params.split;
  let m0 = wid.y * SMALL_TILE;
  let n0 = wid.x * SMALL_TILE;
  let k_begin = slice * params.k_chunk;
  let k_end = min(params.K, k_begin + params.k_chunk);
  if (k_begin < k_end) {{
    slab_store(slab_load(z, m0, n0, k_begin, k_end, tid), 0u, tid);
  }}
  workgroupBarrier();
  var acc0 = vec4<f32>();
  var acc1 = vec4<f32>();
  var acc2 = vec4<f32>();
  var acc3 = vec4<f32>();
  var buffer = 0u;
  let own = lid.z * K_STEP;
  for (var k0 = k_begin; k0 < k_end; k0 += SLAB) {{
    let more = k0 + SLAB < k_end;
    var next: Staged;
    if (more) {{
      next = slab_load(z, m0, n0, k0 + SLAB, k_end, tid);
    }}
    for (var k = 0u; k < K_STEP; k++) {{
      let row = buffer + (own + k) * (SMALL_TILE / 4u);
      let a = a_small[row + lid.y];
      let b = b_small[row + lid.x];
      acc0 = fma(vec4<f32>(a.x), b, acc0);
      acc1 = fma(vec4<f32>(a.y), b, acc1);
      acc2 = fma(vec4<f32>(a.z), b, acc2);
      acc3 = fma(vec4<f32>(a.w), b, acc3);
    }}
    buffer = SMALL_STAGE - buffer;
    if (more) {{
      slab_store(next, buffer, tid);
    }}
    workgroupBarrier();
  }}
  if (lid.z > 0u) {{
    let base = (lid.z - 1u) * 256u + t;
    park(base, acc0);
    park(base + 64u, acc1);
    park(base + 128u, acc2);
    park(base + 192u, acc3);
  }}
  workgroupBarrier();
  if (lid.z > 0u) {{
    return;
  }}
  for (var g = 0u; g < GROUPS - 1u; g++) {{
    let base = g * 256u + t;
    acc0 += parked(base);
    acc1 += parked(base + 64u);
    acc2 += parked(base + 128u);
    acc3 += parked(base + 192u);
  }}
  let top = m0 + 4u * lid.y;
  let left = n0 + 4u * lid.x;
  store_quad(z, slice, top, left, acc0);
  store_quad(z, slice, top + 1u, left, acc1);
  store_quad(z, slice, top + 2u, left, acc2);
  store_quad(z, slice, top + 3u, left, acc3);
}}
"""


def kgroups_text(groups: int) -> str:
    """gemm_small.wgsl's declarations with a workgroup of 8 x 8 x `groups`, and the
    K-group body."""
    spec = (SPEC / "gemm_small.wgsl").read_text()
    head = spec[:spec.index(END) + len(END)]
    old = "const WORKGROUP_SIZE_Z: u32 = 1u;"
    assert old in head
    head = head.replace(old, f"const WORKGROUP_SIZE_Z: u32 = {groups}u;")
    slab = 8 * groups
    stage = slab * SMALL_TILE // 4
    # both staging buffers of a and b must hold the other groups' 4 x 64 partial vec4s
    buffers = max(2 * stage, -(-(groups - 1) * 256 // 2))
    assert 4 * buffers >= 4 * stage and 2 * buffers >= (groups - 1) * 256
    body = KGROUPS_BODY.format(groups=groups, slab=slab, stage=stage, buffers=buffers)
    if buffers != 2 * stage:  # park's split point is the a buffer's length
        body = body.replace("2u * SMALL_STAGE", f"{buffers}u")
    return head + body


def pipelined_text(step: int, depth: int) -> str:
    """gemm_small with K steps of `step` (8 or 16) and global loads issued `depth` (1 or
    2) steps ahead of the step that stores them to workgroup memory."""
    spec = (SPEC / "gemm_small.wgsl").read_text()
    head = spec[:spec.index(END) + len(END)]
    per = step // 8  # vec4s of A (and of B) each of the 64 threads loads per step
    stage = 8 * step  # vec4s per staged slice (step * 32 / 4)
    lines = [f"const SMALL_TILE: u32 = 32u;\nconst STEP: u32 = {step}u;\n"
             f"const SMALL_STAGE: u32 = {stage}u;",
             f"var<workgroup> a_small: array<vec4<f32>, {2 * stage}>;",
             f"var<workgroup> b_small: array<vec4<f32>, {2 * stage}>;",
             "struct Slab {" + "".join(f" s{j}: Staged," for j in range(per)) + " }",
             "fn slab_load(z: u32, m0: u32, n0: u32, k0: u32, end: u32, tid: u32) -> Slab {",
             "  var s: Slab;"]
    for j in range(per):
        lines += [f"  {{ let v = tid + {64 * j}u; let row = v / (STEP / 4u); "
                  f"let k = k0 + v % (STEP / 4u) * 4u;",
                  f"    s.s{j}.a = load_a(z, m0 + row, k, end);",
                  f"    if (B_IS_NK) {{ s.s{j}.b = load_b(z, n0 + row, k, end); }}",
                  f"    else {{ s.s{j}.b = load_b(z, k0 + v / 8u, n0 + v % 8u * 4u, end); }} }}"]
    lines += ["  return s;", "}",
              "fn slab_store(s: Slab, buffer: u32, tid: u32) {"]
    for j in range(per):
        lines += [f"  {{ let v = tid + {64 * j}u; let row = v / (STEP / 4u); "
                  f"let at = buffer + v % (STEP / 4u) * 4u * 8u + row / 4u; let lane = row % 4u;",
                  f"    a_small[at][lane] = s.s{j}.a.x; a_small[at + 8u][lane] = s.s{j}.a.y;",
                  f"    a_small[at + 16u][lane] = s.s{j}.a.z; a_small[at + 24u][lane] = s.s{j}.a.w;",
                  f"    if (B_IS_NK) {{ b_small[at][lane] = s.s{j}.b.x; b_small[at + 8u][lane] = s.s{j}.b.y;",
                  f"      b_small[at + 16u][lane] = s.s{j}.b.z; b_small[at + 24u][lane] = s.s{j}.b.w; }}",
                  f"    else {{ b_small[buffer + v] = s.s{j}.b; }} }}"]
    lines += ["}",
              "@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)",
              "fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {",
              "  let tid = lid.y * 8u + lid.x;",
              "  let slice = wid.z % params.split;",
              "  let z = wid.z / params.split;",
              "  let m0 = wid.y * SMALL_TILE;",
              "  let n0 = wid.x * SMALL_TILE;",
              "  let k_begin = slice * params.k_chunk;",
              "  let k_end = min(params.K, k_begin + params.k_chunk);",
              "  if (k_begin < k_end) { slab_store(slab_load(z, m0, n0, k_begin, k_end, tid), 0u, tid); }",
              "  var ahead: Slab;"]
    if depth == 2:
        lines.append("  if (k_begin + STEP < k_end) { ahead = slab_load(z, m0, n0, k_begin + STEP, k_end, tid); }")
    lines += ["  workgroupBarrier();",
              "  var acc0 = vec4<f32>(); var acc1 = vec4<f32>(); var acc2 = vec4<f32>(); var acc3 = vec4<f32>();",
              "  var buffer = 0u;",
              "  for (var k0 = k_begin; k0 < k_end; k0 += STEP) {",
              "    let more = k0 + STEP < k_end;"]
    if depth == 1:
        lines.append("    if (more) { ahead = slab_load(z, m0, n0, k0 + STEP, k_end, tid); }")
    else:
        lines += ["    var later: Slab;",
                  "    if (k0 + 2u * STEP < k_end) { later = slab_load(z, m0, n0, k0 + 2u * STEP, k_end, tid); }"]
    lines += ["    for (var k = 0u; k < STEP; k++) {",
              "      let row = buffer + k * 8u;",
              "      let a = a_small[row + lid.y];",
              "      let b = b_small[row + lid.x];",
              "      acc0 = fma(vec4<f32>(a.x), b, acc0);",
              "      acc1 = fma(vec4<f32>(a.y), b, acc1);",
              "      acc2 = fma(vec4<f32>(a.z), b, acc2);",
              "      acc3 = fma(vec4<f32>(a.w), b, acc3);",
              "    }",
              "    buffer = SMALL_STAGE - buffer;",
              "    if (more) { slab_store(ahead, buffer, tid); }"]
    if depth == 2:
        lines.append("    ahead = later;")
    lines += ["    workgroupBarrier();",
              "  }",
              "  let top = m0 + 4u * lid.y;",
              "  let left = n0 + 4u * lid.x;",
              "  store_quad(z, slice, top, left, acc0);",
              "  store_quad(z, slice, top + 1u, left, acc1);",
              "  store_quad(z, slice, top + 2u, left, acc2);",
              "  store_quad(z, slice, top + 3u, left, acc3);",
              "}"]
    return head + "\n".join(lines) + "\n"


def lanes_by_row_text() -> str:
    """The spec's gemm_small with its A (and [N, K] B) loads mapped so a warp's 32 threads
    take 32 consecutive rows at one k quad: its transposing stores to workgroup memory
    then hit 32 banks instead of two threads per bank."""
    spec = (SPEC / "gemm_small.wgsl").read_text()
    head, text = spec[:spec.index(END) + len(END)], spec[spec.index(END) + len(END):]
    for old, new in (("  let row = tid / 2u;\n  let k = k0 + tid % 2u * 4u;",
                      "  let row = tid % 32u;\n  let k = k0 + tid / 32u * 4u;"),
                     ("  let row = tid / 2u;\n  let at = buffer + tid % 2u * 4u",
                      "  let row = tid % 32u;\n  let at = buffer + tid / 32u * 4u")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return head + text


def tile_ahead2_text() -> str:
    """The spec's gemm_vec4 (128x128 tile) with its global loads issued two K steps ahead,
    as gemm_small's."""
    text = (SPEC / "gemm_vec4.wgsl").read_text()
    for old, new in (
            ("    stage_store(stage_load(z, m0, n0, k_begin, k_end, tid), 0u, tid);\n  }\n",
             "    stage_store(stage_load(z, m0, n0, k_begin, k_end, tid), 0u, tid);\n  }\n"
             "  var next: Staged;\n  if (k_begin + K_STEP < k_end) {\n"
             "    next = stage_load(z, m0, n0, k_begin + K_STEP, k_end, tid);\n  }\n"),
            ("    var next: Staged;\n    if (more) {\n"
             "      next = stage_load(z, m0, n0, k0 + K_STEP, k_end, tid);\n    }\n",
             "    var after: Staged;\n    if (k0 + 2u * K_STEP < k_end) {\n"
             "      after = stage_load(z, m0, n0, k0 + 2u * K_STEP, k_end, tid);\n    }\n"),
            ("      stage_store(next, buffer, tid);\n    }\n    workgroupBarrier();",
             "      stage_store(next, buffer, tid);\n    }\n    next = after;\n    workgroupBarrier();")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def large(shapes, iters: int) -> None:
    """The 128 tile as the spec has it beside tile_ahead2_text, on the large shapes."""
    from probe_tile_checks import report

    _, dev = device()
    texts = {"gemm_vec4": (SPEC / "gemm_vec4.wgsl").read_text(), "ahead 2": tile_ahead2_text()}
    for a, b, want, flops, ref in problems(shapes, iters, 7):
        for layout, bmat in layouts(b):
            for name, text in texts.items():
                g = Gemm(dev, a, bmat, layout == "nt", text, 0)
                print(f"  {layout} {name} split{g.split}: " + report(g, g.time(iters), want, flops, ref),
                      flush=True)


def padded_rows_text() -> str:
    """The spec's gemm_small with each staged k row padded from 8 to 9 vec4s, so the two
    threads that store one row's k quads 0..3 and 4..7 hit different banks (36 floats
    apart per k instead of 32)."""
    spec = (SPEC / "gemm_small.wgsl").read_text()
    head, text = spec[:spec.index(END) + len(END)], spec[spec.index(END) + len(END):]
    for old, new in (
            ("const SMALL_STAGE: u32 = 64u;", "const ROW: u32 = 9u;\nconst SMALL_STAGE: u32 = 72u;"),
            ("array<vec4<f32>, 128>", "array<vec4<f32>, 144>"),
            ("3u * SMALL_TILE / 4u", "3u * ROW"), ("SMALL_TILE / 2u", "2u * ROW"),
            ("SMALL_TILE / 4u", "ROW"),
            ("b_small[buffer + tid] = s.b;", "b_small[buffer + tid / 8u * ROW + tid % 8u] = s.b;")):
        assert old in text, old
        text = text.replace(old, new)
    return head + text


def small_split(M: int, N: int, K: int) -> int:
    """The matmul spec's split for gemm_small (SPLIT_LETS in codegen/specs/matmul)."""
    tiles = -(-M // SMALL_TILE) * -(-N // SMALL_TILE)
    max_split = max(1, min(-(-K // 8) // 4, 16))
    return min(-(-528 // tiles), max_split) if tiles < 264 else 1


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
    variants = [("gemm_small", spec_text), ("gemm_small, padded rows", padded_rows_text()),
                ("gemm_small, lanes by row", lanes_by_row_text()),
                ("kgroups 4", kgroups_text(4))] + [
        (f"step {step} ahead {depth}", pipelined_text(step, depth))
        for step, depth in ((8, 1), (8, 2), (16, 2))]
    from probe_tile_checks import report

    for a, b, want, flops, ref in problems(shapes, iters, 6):
        M, K = a.shape
        N = b.shape[1]
        rule = small_split(M, N, K)
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
