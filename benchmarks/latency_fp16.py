"""`model_latency.py run DIR --fp16`: each model's float16 twins (packed by `pack --fp16`)
beside our float32 `.pte`, in one run: ours fp16 (the force_fp16 `.pte` on the native
delegate), ours fp32, ORT WebGPU on the float16 ONNX model and torch CUDA eager on the
half TorchScript. Wall clock per forward as model_latency.py measures it; every float16
output checked against eager float32 by HALF_TOLERANCE (ours fp32 by TOLERANCE) before
its time is printed. The ratios ours fp32 / ours fp16 and ORT fp16 / ours fp16 are printed
against their targets; without CUDA (a CPU check of the pack) torch's column is "-".
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import torch

import model_latency as M


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a / b


def time_model(folder: Path, name: str, entry: dict) -> dict:
    """One model's float16 row (times in ms, errors relative to the output's scale)."""
    from codegen.et.pte import run_pte

    inputs, want = entry["inputs"], entry["output"]
    files = M._restored(folder, name)
    outputs, ours16 = run_pte(files / f"{name}.fp16.pte", inputs, iters=M.ITERS,
                              warmup=M.WARMUP)
    errors = {"ours fp16": M._check(name, "the float16 .pte", outputs[0], want,
                                    M.HALF_TOLERANCE)}
    outputs, ours32 = run_pte(files / f"{name}.pte", inputs, iters=M.ITERS, warmup=M.WARMUP)
    errors["ours fp32"] = M._check(name, "the float32 .pte", outputs[0], want)
    # a peer whose float16 output is off loses its time (a fast wrong result is none),
    # not the row: ours is still compared with the others
    ort_ms, ort_out = M._ort_webgpu(files / f"{name}.fp16.onnx", inputs, half=True)
    ort_ms = _peer(errors, "ORT fp16", ort_ms, lambda: M._check(
        name, "ORT (float16)", ort_out, want, M.HALF_TOLERANCE))
    torch_ms = None
    if torch.cuda.is_available():
        torch_ms, torch_out = M._torch_cuda(files / f"{name}.fp16.pt", inputs, half=True)
        torch_ms = _peer(errors, "torch fp16", torch_ms, lambda: M._check(
            name, "torch (float16)", torch_out, want, M.HALF_TOLERANCE))
    row = {"model": name, "ours_fp16_ms": ours16.median_ms, "ours_fp32_ms": ours32.median_ms,
           "ort_fp16_ms": ort_ms, "torch_fp16_ms": torch_ms, "errors": errors}
    row["fp32_over_fp16"] = _ratio(row["ours_fp32_ms"], row["ours_fp16_ms"])
    row["ort_over_fp16"] = _ratio(ort_ms, row["ours_fp16_ms"])
    row["torch_over_fp16"] = _ratio(torch_ms, row["ours_fp16_ms"])
    return row


def _peer(errors: dict, label: str, ms: float, check) -> float | None:
    """The peer's time when its output passes `check`, else None; errors[label] holds its
    error, or the check's message."""
    try:
        errors[label] = check()
        return ms
    except M.OutputMismatch as e:
        errors[label] = f"{e} (time not reported)"
        return None


HEAD = (f"{'model':22} {'ours fp16 ms':>12} {'ours fp32 ms':>12} {'ORT fp16 ms':>11} "
        f"{'torch fp16 ms':>13} {'fp32/fp16':>9} {'ORT/ours16':>10} {'torch/ours16':>12}  "
        "(errors ours fp16 / ours fp32 / ORT fp16 / torch fp16)")


def line(row: dict) -> str:
    def f(v, width, spec):
        return f"{'-':>{width}}" if v is None else f"{v:{width}{spec}}"

    def verdict(ratio, target):
        return "-" if ratio is None else "met" if ratio >= target else "NOT met"

    met = (f"fp32/fp16 {verdict(row['fp32_over_fp16'], M.FP16_SPEEDUP_TARGET)}"
           f", ORT/ours16 {verdict(row['ort_over_fp16'], M.FP16_ORT_TARGET)}")
    errors = " / ".join(e if isinstance(e, str) else f"{e:.1e}" for e in row["errors"].values())
    return (f"{row['model']:22} {row['ours_fp16_ms']:12.3f} {row['ours_fp32_ms']:12.3f} "
            f"{f(row['ort_fp16_ms'], 11, '.3f')} {f(row['torch_fp16_ms'], 13, '.3f')} "
            f"{row['fp32_over_fp16']:9.2f} {f(row['ort_over_fp16'], 10, '.2f')} "
            f"{f(row['torch_over_fp16'], 12, '.2f')}  (errors {errors}; {met})")


def run_fp16(folder: Path, expected: dict, profile_kernels: bool = False) -> None:
    """The float16 table of every model in `folder` with float16 twins; the rows also go
    to $LATENCY_JSON when set. `profile_kernels`: then each model's GPU time per kernel,
    float16 and float32."""
    names = [n for n in expected if (folder / f"{n}.fp16.pte").exists()
             or (folder / f"{n}.fp16.pte.kept").exists()]
    if not names:
        raise SystemExit(f"{folder}: no <model>.fp16.pte (run `pack --fp16` first)")
    print(f"targets: ours fp32 / ours fp16 >= {M.FP16_SPEEDUP_TARGET:g}, ORT WebGPU fp16 / "
          f"ours fp16 >= {M.FP16_ORT_TARGET:g}; float16 outputs within {M.HALF_TOLERANCE:g} "
          f"of eager float32's scale"
          + ("" if torch.cuda.is_available() else "; no CUDA here: no torch column"))
    print(HEAD, flush=True)
    rows, failed = [], []
    for name in names:
        try:
            rows.append(time_model(folder, name, expected[name]))
        except M.OutputMismatch as e:  # reported, and the run fails at its end
            print(e, flush=True)
            failed.append(name)
            continue
        print(line(rows[-1]), flush=True)
    if os.environ.get("LATENCY_JSON"):
        Path(os.environ["LATENCY_JSON"]).write_text(json.dumps(rows, indent=1))
    if profile_kernels:
        for row in rows:  # both .pte files (model_latency's per-kernel table)
            for suffix in (".fp16", ""):
                M._profile_model(folder, row["model"], expected[row["model"]], suffix)
    if failed:
        raise SystemExit(f"outputs off for {', '.join(failed)}: their times are not reported")
