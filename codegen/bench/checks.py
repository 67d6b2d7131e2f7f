"""What every benchmark figure must pass first: its result matches torch's.

Shared by our timings (`codegen.bench.bench`) and ONNX Runtime's (`codegen.bench.ort`).
"""

from __future__ import annotations


class BenchError(RuntimeError):
    """A benchmark that would print a misleading figure: a wrong result, ours or ORT's, or
    ORT on another execution provider than the one named."""


# How far a benchmarked result, ours or ORT's, may be from torch's, relative to its largest
# value: loose enough for any op's float32 reassociation, far below what a wrong index,
# layout or attribute produces.
BENCH_TOLERANCE = 1e-3


def relative_error(got, want) -> float:
    """max |got - want| over the largest finite |want| (at least 1): equal infinities and
    NaN against NaN count as equal, NaN against a number as infinitely wrong; a shape or
    integer mismatch is infinite."""
    import torch

    if tuple(got.shape) != tuple(want.shape):
        return float("inf")
    if not want.is_floating_point():
        return 0.0 if torch.equal(got.to(want.dtype), want) else float("inf")
    if not want.numel():
        return 0.0
    g64, w64 = got.to(torch.float64), want.to(torch.float64)
    same = (g64 == w64) | (g64.isnan() & w64.isnan())
    finite = w64[w64.isfinite()].abs()
    scale = max([1.0] + ([float(finite.max())] if finite.numel() else []))
    error = float(torch.where(same, 0.0, (g64 - w64).abs()).max()) / scale
    return error if error == error else float("inf")  # NaN where torch has a number
