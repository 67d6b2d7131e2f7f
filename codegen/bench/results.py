"""Benchmark results: one row per timed op, its rates, the adapters' peaks, the printed
table and the chart (`opgen bench`, codegen/bench/bench.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


# Datasheet peaks of the adapters we measure on (../shared/DESIGN.md): fp32 without
# tensor cores, and HBM bandwidth. Matched against the adapter line.
KNOWN_PEAKS = {"H200": {"TFLOP/s": 67.0, "GB/s": 4800.0}}
UNITS = ("TFLOP/s", "GB/s")


def peaks_for(adapter_line: str, given: list[str] = ()) -> dict[str, float]:
    """The adapter's known peaks, overridden by `given` ("GB/s=4800" items)."""
    peaks = next((dict(v) for k, v in KNOWN_PEAKS.items() if k in adapter_line), {})
    for item in given:
        unit, _, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = 0.0
        if unit not in UNITS or number <= 0:
            raise SystemExit(f"opgen bench: --peak expects UNIT=VALUE with UNIT one of "
                             f"{', '.join(UNITS)} and a positive VALUE (got {item!r})")
        peaks[unit] = number
    return peaks


@dataclass
class Result:
    name: str
    target: str
    route: str
    ours_ms: float
    timer: str  # "timestamp" | "wall"
    work: float  # FLOPs or bytes
    unit: str  # "TFLOP/s" | "GB/s"
    torch_ms: float | None = None
    ort_ms: float | None = None
    ort_spread_ms: float | None = None  # half the interquartile range of ORT's estimates
    extra: dict = field(default_factory=dict)

    def rate(self, ms: float | None) -> float | None:
        if not ms:
            return None
        scale = 1e12 if self.unit == "TFLOP/s" else 1e9
        return self.work / (ms * 1e-3) / scale


def bandwidth_view(r: Result) -> Result:
    """A FLOP-rated row read as bytes moved (its `extra["bytes"]`), same times."""
    return Result(f"{r.name} [GB/s]", r.target, r.route, r.ours_ms, r.timer, r.extra["bytes"],
                  "GB/s", r.torch_ms, r.ort_ms, r.ort_spread_ms)


def with_views(results: list[Result]) -> list[Result]:
    """The results, each followed by its bandwidth view where it has one."""
    rows = []
    for r in results:
        rows.append(r)
        if r.unit != "GB/s" and "bytes" in r.extra:
            rows.append(bandwidth_view(r))
    return rows


def report(results: list[Result], peaks: dict[str, float]) -> str:
    results = with_views(results)
    name_w = max([34] + [len(r.name) for r in results])
    route_w = max([26] + [len(r.route) for r in results])
    head = (f"{'shape':{name_w}} {'route':{route_w}} {'ours ms':>9} {'rate':>14} {'of peak':>7} "
            f"{'torch ms':>9} {'rate':>9} {'ours/torch':>10} {'ORT ms':>15} {'rate':>9} "
            f"{'ours/ORT':>9}")
    lines = [head, "-" * len(head)]
    for r in results:
        def fmt(v, spec):
            return format(v, spec) if v is not None else "-"
        ours_rate, torch_rate, ort_rate = r.rate(r.ours_ms), r.rate(r.torch_ms), r.rate(r.ort_ms)
        of_peak = f"{100 * ours_rate / peaks[r.unit]:6.1f}%" if r.unit in peaks else f"{'-':>7}"
        ort_ms = f"{r.ort_ms:.4f}±{r.ort_spread_ms:.4f}" if r.ort_ms is not None else "-"
        lines.append(
            f"{r.name:{name_w}} {r.route:{route_w}} {r.ours_ms:9.4f} {ours_rate:9.2f} {r.unit:>4} "
            f"{of_peak} {fmt(r.torch_ms, '9.4f')} {fmt(torch_rate, '9.2f')} "
            f"{fmt(torch_rate and ours_rate / torch_rate, '10.2f')} "
            f"{ort_ms:>15} {fmt(ort_rate, '9.2f')} "
            f"{fmt(ort_rate and ours_rate / ort_rate, '9.2f')}")
    return "\n".join(lines)


def chart(results: list[Result], path: Path, peaks: dict[str, float]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = with_views(results)
    units = [u for u in UNITS if any(r.unit == u for r in results)]
    fig, axes = plt.subplots(1, len(units), figsize=(8 * len(units), 5), squeeze=False)
    for ax, unit in zip(axes[0], units):
        rows = [r for r in results if r.unit == unit]
        xs = range(len(rows))
        w = 0.27
        for k, (label, key) in enumerate((("ours (WGSL)", "ours_ms"), ("ORT WebGPU", "ort_ms"),
                                          ("torch CUDA", "torch_ms"))):
            ax.bar([x + (k - 1) * w for x in xs], [r.rate(getattr(r, key)) or 0 for r in rows], w,
                   label=label)
        if unit in peaks:
            ax.axhline(peaks[unit], color="gray", linestyle="--", label=f"peak {peaks[unit]:g}")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([r.name for r in rows], rotation=30, ha="right", fontsize=8)
        ax.set_ylabel(unit)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
