"""The float16 suites beside their float32 twins: one table from two `opgen bench --json`
files of one run (`gemm_f16` with `gemm`, `conv_f16` with `conv_anchors`: the same row
names and shapes), joined by row name.

    python -m codegen.bench.f16_report F32.json F16.json [--markdown]

Per row: our float16 time and rate, our float32 time, torch CUDA's float16 time (cuBLAS /
cuDNN, the f16 file's torch column), and the ratios ours f32 / ours f16 (the float16
speed-up) and torch f16 / ours f16 (above 1: ours is faster). The GEMM 4096³ target
(our f16 rate at least 2x our f32 rate) is printed as met or not when that row is there.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

GEMM_TARGET_ROW, GEMM_TARGET = "mm 4096x4096x4096", 2.0  # f16 rate / f32 rate, at least


def _rows(path: Path) -> tuple[str, dict[str, dict]]:
    data = json.loads(path.read_text())
    return data["adapter"], {r["name"]: r for r in data["results"]}


def join(f32: dict[str, dict], f16: dict[str, dict]) -> list[dict]:
    """One entry per float16 row that has a float32 twin, in the float16 file's order;
    a row without its twin fails loud (the two files are not of one suite)."""
    missing = [name for name in f16 if name not in f32]
    if missing:
        raise SystemExit(f"f16_report: float16 rows without a float32 twin: "
                         f"{', '.join(missing)} (expected the files of one suite pair, e.g. "
                         f"gemm.json and gemm_f16.json)")
    out = []
    for name, h in f16.items():
        s = f32[name]
        rate = h["work"] / (h["ours_ms"] * 1e-3) / 1e12 if h["unit"] == "TFLOP/s" else None
        out.append({"name": name, "route": h["route"], "f16_ms": h["ours_ms"],
                    "f16_tflops": rate, "f32_ms": s["ours_ms"], "torch_f16_ms": h["torch_ms"],
                    "f32_over_f16": s["ours_ms"] / h["ours_ms"],
                    "torch_over_f16": (h["torch_ms"] / h["ours_ms"]) if h["torch_ms"] else None})
    return out


def render(rows: list[dict], markdown: bool = False) -> str:
    head = ["row", "ours f16 route", "ours f16 ms", "f16 TFLOP/s", "ours f32 ms",
            "torch fp16 ms", "f32 / f16", "torch f16 / ours f16"]

    def cells(r):
        def f(v, spec):
            return "-" if v is None else format(v, spec)
        return [r["name"], r["route"], f(r["f16_ms"], ".4f"), f(r["f16_tflops"], ".2f"),
                f(r["f32_ms"], ".4f"), f(r["torch_f16_ms"], ".4f"), f(r["f32_over_f16"], ".2f"),
                f(r["torch_over_f16"], ".2f")]

    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(cells(r)) + " |" for r in rows]
    else:
        lines = [" ".join(f"{c:>14}" if i else f"{c:40}" for i, c in enumerate(row))
                 for row in [head] + [cells(r) for r in rows]]
    for r in rows:
        if r["name"] == GEMM_TARGET_ROW:
            met = r["f32_over_f16"] >= GEMM_TARGET
            lines.append(f"target: {GEMM_TARGET_ROW} f16 at least {GEMM_TARGET:g}x our f32 rate: "
                         f"{r['f32_over_f16']:.2f}x, {'met' if met else 'NOT met'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("f32", type=Path, help="the float32 suite's --json (gemm, conv_anchors)")
    p.add_argument("f16", type=Path, help="its float16 twin's --json (gemm_f16, conv_f16)")
    p.add_argument("--markdown", action="store_true")
    a = p.parse_args(argv)
    adapter32, f32 = _rows(a.f32)
    adapter16, f16 = _rows(a.f16)
    if adapter32 != adapter16:
        raise SystemExit(f"f16_report: the files come from two adapters ({adapter32!r} and "
                         f"{adapter16!r}): ratios need one run")
    print(f"adapter: {adapter16}")
    print(render(join(f32, f16), a.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
