"""Every GEMM tile and split-K count on each shape, beside torch CUDA and the spec's own
choice: the measurements the matmul spec's cost estimate (TILE_ROWS, ROW_STEP_NS, FLOOR,
SPLIT_NS in codegen/specs/matmul/matmul.py) is fitted to.

Not a test. Each configuration is mm with some of the spec's lets replaced (the tile's
rows `tile_m`, the slices `split`; the routes before this choice, where they still exist,
with their kernel forced), its
result checked against torch at the benchmark's shapes, then timed as `opgen bench`
times (GPU timestamps around passes of 10 calls, the median of --iters passes).

    python benchmarks/bench_gemm_routes.py --ort --json OUT.json  # GPU-sized shapes
    python benchmarks/bench_gemm_routes.py --small                # a CPU adapter's
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from codegen.bench import ort as bench_ort  # noqa: E402
from codegen.bench.bench import time_ours, time_torch  # noqa: E402
from codegen.bench.checks import BENCH_TOLERANCE, relative_error  # noqa: E402
from codegen.executors import harness  # noqa: E402
from codegen.executors.call import bind_call  # noqa: E402
from codegen.executors.wgpu_device import adapter_line  # noqa: E402
from codegen.graph.inputs import materialize, randn  # noqa: E402
from codegen.language.bind import bind  # noqa: E402
from codegen.lower.catalog import catalog  # noqa: E402
from codegen.lower.steps import lower  # noqa: E402

TARGET = "aten.mm.default"
SHAPES = {
    "gpu": [(128, 2048, 8192), (128, 8192, 2048), (577, 1024, 4096), (1024, 768, 3072),
            (196, 768, 768), (196, 768, 2304), (196, 768, 3072), (196, 3072, 768),
            (8, 4096, 4096), (8, 2048, 2048), (4, 2048, 8192), (1576, 768, 3072)],
    "small": [(40, 64, 264), (9, 256, 16), (130, 32, 136)],
}
TILE_ROWS = (128, 64, 32)
SPLITS = (1, 2, 3, 4, 6, 8, 12, 16)
SMS = 132


def old_choice(m: int, k: int, n: int) -> tuple[str, int] | None:
    """The routes before the tile choice (kernel, split): gemv_nn for M <= 8, gemm_small
    (gone) where 128 tiles were fewer than the SMs, else the 128 tile, split below 132
    tiles (None where that tile split only a short last round: gone too)."""
    cd = lambda a, b: -(-a // b)  # noqa: E731
    tiles, small_tiles, steps = cd(m, 128) * cd(n, 128), cd(m, 32) * cd(n, 32), cd(k, 8)
    max_split = max(1, min(steps // 4, 16))
    if m <= 8:
        return "gemv_nn", (min(cd(264, max(tiles, 1)), max_split) if tiles < 132 else 1)
    if tiles < 132 and small_tiles >= 132 and m <= 256:
        return None
    if tiles < 132:
        return "gemm_vec4", min(cd(264, max(tiles, 1)), max_split)
    tiles_n = cd(n, 128)
    tail = cd(m, 128) % max(1, 264 // tiles_n) if tiles_n <= 264 else 0
    return None if tail and tail * tiles_n <= 132 else ("gemm_vec4", 1)


def configs(m: int, k: int, n: int) -> list[tuple[str, tuple[str, ...], dict]]:
    """(label, forced kernels, let overrides) of every configuration timed on a shape."""
    cd = lambda a, b: -(-a // b)  # noqa: E731
    max_split = max(1, min(cd(k, 8) // 4, 16))
    out = [("spec", (), {})]
    old = old_choice(m, k, n)
    if old:
        kernel, split = old
        out.append((f"old {kernel} s{split}", (kernel,),
                    {"gemv": str(kernel == "gemv_nn"), "split": str(split)}))
    for rows in TILE_ROWS:
        tiles = cd(m, rows) * cd(n, 128)
        for s in SPLITS:
            # at most four times the workgroups the SMs hold at once
            if s == 1 or (s <= max_split and tiles * s <= 4 * 2 * SMS * 128 // rows):
                out.append((f"m{rows} s{s}", (), {"gemv": "False", "tile_m": str(rows),
                                                  "split": str(s)}))
    return out


_LOWERINGS: dict = {}


def lowering_with(overrides: dict):
    key = tuple(sorted(overrides.items()))
    if key not in _LOWERINGS:
        bound = catalog().op("mm")
        op = dataclasses.replace(bound.op, let={**bound.op.let, **overrides}, cases=[])
        _LOWERINGS[key] = lower(bind(op, bound.spec_file))
    return _LOWERINGS[key]


def main() -> int:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="CPU-adapter sized shapes")
    parser.add_argument("--iters", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--ort", action="store_true", help="time ORT WebGPU's MatMul too")
    args = parser.parse_args()
    print(f"adapter: {adapter_line()}", flush=True)
    results = []
    for m, k, n in SHAPES["small" if args.small else "gpu"]:
        call_args = materialize((randn(m, k), randn(k, n)), f"mm {m}x{k}x{n}")
        want = call_args[0].double() @ call_args[1].double()
        torch_ms = time_torch(TARGET, call_args, 20, 3)
        ort = bench_ort.time_ort(TARGET, call_args, 20, 3) if args.ort else None
        base = bind_call(TARGET, call_args, {})
        rows = []
        for label, force, overrides in configs(m, k, n):
            call = dataclasses.replace(base, lowering=lowering_with(overrides)) if overrides \
                else base
            node = harness.EXECUTOR.build(call, force=force)
            error = relative_error(node.run(), want)
            if error > BENCH_TOLERANCE:
                raise SystemExit(f"mm {m}x{k}x{n} {label} ({'+'.join(node.routes)}): error "
                                 f"{error:.3g} relative to the largest value")
            ms, timer = time_ours(node, args.iters, args.warmup)
            rows.append({"config": label, "routes": node.routes, "ms": ms, "timer": timer})
        best = min(rows[1:], key=lambda r: r["ms"])
        flops = 2.0 * m * k * n
        print(f"mm {m}x{k}x{n}: torch {torch_ms and f'{torch_ms:.4f}'} ms; ORT "
              f"{ort and f'{ort.ms:.4f} +- {ort.spread_ms:.4f}'}; spec "
              f"{'+'.join(rows[0]['routes'])} {rows[0]['ms']:.4f}; best {best['config']} "
              f"{best['ms']:.4f} ({flops / best['ms'] / 1e9:.2f} TFLOP/s)", flush=True)
        print("  " + "; ".join(f"{r['config']} {r['ms']:.4f}" for r in rows[1:]), flush=True)
        results.append({"shape": [m, k, n], "torch_ms": torch_ms, "ort_ms": ort and ort.ms,
                        "ort_spread_ms": ort and ort.spread_ms, "rows": rows})
        if args.json:  # after each shape: a run cut short keeps what it measured
            args.json.write_text(json.dumps({"adapter": adapter_line(), "results": results},
                                            indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
