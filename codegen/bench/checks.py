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
# The same for float16 tensors (the `*_f16` suites), against torch on the float16 inputs
# widened to float32: our kernels accumulate in float32 and round each output to half once
# (2^-11 = 4.9e-4 of the largest value at most, docs/numerics.md's float16 GEMM and conv
# criterion), so 2e-3 leaves four half roundings of margin; a wrong index, layout or a
# sum kept in half (K = 4096 terms) is off by far more.
BENCH_TOLERANCE_F16 = 2e-3


def has_float16(args) -> bool:
    """Whether any tensor among `args` (nested in lists and tuples) is float16."""
    import torch

    if isinstance(args, torch.Tensor):
        return args.dtype == torch.float16
    return isinstance(args, (list, tuple)) and any(has_float16(a) for a in args)


def widened(args):
    """`args` with every float16 tensor widened to float32 (exactly: each half is a float)."""
    import torch

    if isinstance(args, torch.Tensor):
        return args.float() if args.dtype == torch.float16 else args
    return type(args)(widened(a) for a in args) if isinstance(args, (list, tuple)) else args


def bench_tolerance(args) -> float:
    """BENCH_TOLERANCE_F16 for a call on float16 tensors, else BENCH_TOLERANCE."""
    return BENCH_TOLERANCE_F16 if has_float16(args) else BENCH_TOLERANCE


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
