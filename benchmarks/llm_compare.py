"""Decode speed of several webgpu_llm_runner builds on one llm_bench pack, measured side
by side on the GPU machine: the runners interleaved over a few rounds (a decode step's
time drifts from run to run more than most kernel changes move it), then one profiled
decode per runner (GPU time per kernel and grid).

    python benchmarks/llm_compare.py PACK OUT RUNNER... [--rounds 3]   # there (numpy only)

PACK: a `benchmarks/llm_bench.py pack` folder (its runner/ holds the shared libraries the
runners link); each RUNNER: a webgpu_llm_runner built here from one tree (strip it to
carry it). Prints each runner's decode tok/s per round at context 128 (64 new tokens
after a 128-token prompt, the median step) and its profile.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import llm_bench  # noqa: E402
import seeded_weights  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pack", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("runners", type=Path, nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    info = json.loads(next(args.pack.glob("*.info.json")).read_text())
    restored = Path("/tmp/llm_compare") / info["model"]
    seeded_weights.restore_model(args.pack, info["model"], restored)
    pte = restored / f"{info['model']}.pte"
    os.environ["LD_LIBRARY_PATH"] = str((args.pack / "runner").resolve())
    runners = [r.resolve() for r in args.runners]
    rates: dict[str, list[float]] = {r.name: [] for r in runners}
    for i in range(args.rounds):
        for r in runners:
            m = llm_bench.generate(r, pte, 128, llm_bench.NEW_TOKENS, args.out / f"{r.name}_{i}",
                                   warmup=1)
            rates[r.name].append(1000 / m["decode_median_ms"])
    for r in runners:
        print(f"{r.name}: decode tok/s " + ", ".join(f"{v:.1f}" for v in rates[r.name]))
    for r in runners:
        m = llm_bench.generate(r, pte, 128, 16, args.out / f"{r.name}_profile", profile=True)
        kernels = sorted(m["kernel_times"].items(), key=lambda kv: -kv[1]["gpu_ms"])
        print(f"{r.name} profile: {sum(t['gpu_ms'] for _, t in kernels):.3f} ms GPU per step")
        grids = sorted(m["dispatch_times"].items(), key=lambda kv: -kv[1]["gpu_ms"])
        for name, t in grids[:12]:
            print(f"   {name:48s} {1000 * t['gpu_ms'] / t['dispatches']:7.1f} us x "
                  f"{t['dispatches']:g}")


if __name__ == "__main__":
    main()
