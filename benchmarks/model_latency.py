"""Whole-model latency, three ways in one run on a GPU machine: our `.pte` on the native
WebGPU delegate, the same model exported to ONNX on ONNX Runtime's WebGPU EP, and torch
CUDA eager (the model traced to TorchScript, so the GPU machine needs neither
transformers nor ExecuTorch).

    python benchmarks/model_latency.py pack DIR [--models ...]   # here: <name>.pte/.onnx/.pt
    python benchmarks/model_latency.py run DIR                   # there: a table of medians

Each runner's output is checked against the eager output recorded here (max abs error
over the output's scale at most 1e-3) before its time is reported.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import torch  # noqa: E402

# hf_llama is left out: torch.jit.trace of LlamaForCausalLM fails (unordered_map::at)
MODELS = ["hf_resnet", "hf_mobilenet_v2", "hf_convnext", "hf_vit", "hf_siglip", "hf_davit"]
ITERS, WARMUP = 50, 5


def pack(folder: Path, names: list[str]) -> None:
    import e2e_models

    from codegen.et.export import export

    folder.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name in names or MODELS:
        model, inputs = getattr(e2e_models, name)()
        export(model, inputs, folder / f"{name}.pte")
        with torch.no_grad():
            expected[name] = {"inputs": inputs, "output": model(*inputs)}
            torch.jit.trace(model, inputs, strict=False).save(str(folder / f"{name}.pt"))
            torch.onnx.export(model, inputs, str(folder / f"{name}.onnx"), dynamo=False,
                              opset_version=17)
    torch.save(expected, folder / "expected.pt")


def _check(name: str, runner: str, got: torch.Tensor, want: torch.Tensor) -> None:
    err = (got.double().cpu() - want.double()).abs().max().item()
    scale = max(want.double().abs().max().item(), 1e-30)
    if err / scale > 1e-3:
        raise SystemExit(f"{name}: {runner}'s output is off by {err:.3g} (scale {scale:.3g})")


def _median_ms(fn) -> float:
    for _ in range(WARMUP):
        fn()
    times = []
    for _ in range(ITERS):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def _torch_cuda(path: Path, inputs: tuple) -> tuple[float, torch.Tensor]:
    module = torch.jit.load(str(path), map_location="cuda").eval()
    args = tuple(t.cuda() for t in inputs)
    with torch.no_grad():
        out = module(*args)

        def step():
            module(*args)
            torch.cuda.synchronize()
        return _median_ms(step), out


def _ort_webgpu(path: Path, inputs: tuple) -> tuple[float, torch.Tensor]:
    import onnxruntime as ort

    from codegen.bench.ort import WEBGPU, require_provider

    session = require_provider(ort.InferenceSession(str(path), providers=[WEBGPU]), WEBGPU)
    feed = {i.name: t.numpy() for i, t in zip(session.get_inputs(), inputs)}
    out = torch.from_numpy(session.run(None, feed)[0])
    return _median_ms(lambda: session.run(None, feed)), out


def run(folder: Path) -> None:
    from codegen.et.pte import run_pte

    expected = torch.load(folder / "expected.pt", weights_only=False)
    # "rerun ms": ours with the constant dispatches (conv weight packs) run on every
    # execute, as before they ran once at load
    print(f"{'model':18} {'ours ms':>9} {'rerun ms':>9} {'ORT WebGPU ms':>14} "
          f"{'torch CUDA ms':>14} {'ours/ORT':>9} {'ours/torch':>10}")
    for name, entry in expected.items():
        inputs, want = entry["inputs"], entry["output"]
        outputs, latency = run_pte(folder / f"{name}.pte", inputs, iters=ITERS, warmup=WARMUP)
        _check(name, "the .pte", outputs[0], want)
        _, rerun = run_pte(folder / f"{name}.pte", inputs, iters=ITERS, warmup=WARMUP,
                           rerun_constants=True)
        ort_ms, ort_out = _ort_webgpu(folder / f"{name}.onnx", inputs)
        _check(name, "ORT", ort_out, want)
        torch_ms, torch_out = _torch_cuda(folder / f"{name}.pt", inputs)
        _check(name, "torch", torch_out, want)
        ours = latency.median_ms
        print(f"{name:18} {ours:9.3f} {rerun.median_ms:9.3f} {ort_ms:14.3f} {torch_ms:14.3f} "
              f"{ort_ms / ours:9.2f} {torch_ms / ours:10.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=("pack", "run"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("--models", nargs="*", default=[])
    a = parser.parse_args()
    if a.mode == "pack":
        pack(a.folder, a.models)
    else:
        run(a.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
