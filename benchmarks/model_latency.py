"""Whole-model latency, three ways in one run on a GPU machine: our `.pte` on the native
WebGPU delegate, the same model exported to ONNX on ONNX Runtime's WebGPU EP, and torch
CUDA eager (the model traced to TorchScript, so the GPU machine needs neither
transformers nor ExecuTorch).

    python benchmarks/model_latency.py pack DIR [--models ...]   # here: <name>.pte/.onnx/.pt
    python benchmarks/model_latency.py pack DIR --realistic      # published sizes, stripped
    python benchmarks/model_latency.py run DIR                   # there: a table of medians
    python benchmarks/model_latency.py run DIR --profile         # and our GPU time per kernel
    python benchmarks/model_latency.py pack DIR --fp16 ...       # also <name>.fp16.pte/.onnx/.pt
    python benchmarks/model_latency.py run DIR --fp16            # the float16 table

With --fp16, pack also writes the float16 twins: our `.pte` exported with the Vulkan
partitioner's force_fp16 (`opgen export --fp16`: float16 weights and activations, float32
host inputs and outputs), the model halved (`model.half()`) and exported to ONNX (float16
initializers, inputs and output) and traced to TorchScript; `run --fp16` times ours in
float16 and float32, ORT WebGPU on the float16 ONNX model (fed float16 inputs) and torch
CUDA eager on the half TorchScript, each float16 output checked against eager float32 by
HALF_TOLERANCE, and prints the targets (ours fp32 / ours fp16 >= 1.6, ORT fp16 / ours
fp16 >= 1.5) as met or not.

With --realistic the models of realistic_models.py are packed without their large
weights (seeded_weights.py: drawn from a named seed, cut from the files here, drawn
again and written back there, checked byte for byte), so a ViT-B/16 fits the device
tool's carry limit.

Each runner's output is checked against the eager output recorded here (max abs error
over the output's scale at most TOLERANCE) before its time is reported; the table
prints each runner's error.
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
# cuDNN's fp32 algorithms (Winograd, FFT) put torch CUDA's MobileNetV2 at 2.8e-3 of the
# output's scale from CPU eager; the table prints each runner's error beside its time
TOLERANCE = 1e-2
# A float16 model against eager float32: `export --fp16`'s criterion (codegen/et/compare.py
# HALF_CRITERION: max abs error at most 1e-2 of the output's scale). Half keeps 11
# significant bits and every op rounds, so a correct float16 model is a few 1e-3 off.
HALF_TOLERANCE = 1e-2
# ratios the float16 models are to reach (issue targets): ours fp32 / ours fp16, and
# ORT WebGPU fp16 / ours fp16
FP16_SPEEDUP_TARGET, FP16_ORT_TARGET = 1.6, 1.5


def pack(folder: Path, names: list[str], realistic: bool, fp16: bool = False) -> None:
    import copy

    import e2e_models
    import realistic_models
    import seeded_weights

    from codegen.et.export import export

    folder.mkdir(parents=True, exist_ok=True)
    factories = realistic_models if realistic else e2e_models
    for name in names or (realistic_models.MODELS if realistic else MODELS):
        t0 = time.perf_counter()
        model, inputs = getattr(factories, name)()
        weights = seeded_weights.reseed(model) if realistic else {}
        export(model, inputs, folder / f"{name}.pte")
        _save_eager(model, inputs, folder, name)
        with torch.no_grad():
            torch.save({"inputs": inputs, "output": model(*inputs)},
                       folder / f"{name}.expected.pt")
        kinds = [("", "float32")]
        if fp16:
            export(model, inputs, folder / f"{name}.fp16.pte", fp16=True)
            half = copy.deepcopy(model).half()
            _save_eager(half, tuple(t.half() for t in inputs), folder, f"{name}.fp16")
            kinds.append((".fp16", "float16"))
        print(f"{name}: exported in {time.perf_counter() - t0:.0f} s", flush=True)
        if weights:
            files = {f"{name}{kind}{ext}": seeded_weights.strip(folder / f"{name}{kind}{ext}",
                                                                 weights, dtype)
                     for kind, dtype in kinds for ext in (".pte", ".pt", ".onnx")}
            seeded_weights.write_manifest(folder, name, weights, files)
            for file, entry in files.items():
                kept = (folder / f"{file}.kept").stat().st_size
                print(f"{file}: {entry['size'] / 2**20:.1f} MiB, {len(entry['holes'])} weights "
                      f"cut, {kept / 2**20:.2f} MiB kept", flush=True)


def _save_eager(model, inputs: tuple, folder: Path, stem: str) -> None:
    """`model` traced to TorchScript (<stem>.pt) and exported to ONNX (<stem>.onnx)."""
    with torch.no_grad():
        torch.jit.trace(model, inputs, strict=False).save(str(folder / f"{stem}.pt"))
        torch.onnx.export(model, inputs, str(folder / f"{stem}.onnx"), dynamo=False,
                          opset_version=17)


def _restored(folder: Path, name: str) -> Path:
    """The folder holding `name`'s three files: `folder` itself, or (stripped files)
    a scratch folder they are rebuilt into."""
    import seeded_weights

    if not (folder / f"{name}.weights.json").exists():
        return folder
    out = Path(os.environ.get("TMPDIR", "/tmp")) / "model_latency" / name
    seeded_weights.restore_model(folder, name, out)
    return out


class OutputMismatch(Exception):
    pass


def _check(name: str, runner: str, got: torch.Tensor, want: torch.Tensor,
           tolerance: float = TOLERANCE) -> float:
    """The output's max abs error over its scale; fails above `tolerance` (and on NaN)."""
    err = (got.double().cpu() - want.double()).abs().max().item()
    scale = max(want.double().abs().max().item(), 1e-30)
    if not err / scale <= tolerance:
        raise OutputMismatch(f"{name}: {runner}'s output is off by {err:.3g} (scale {scale:.3g}, "
                             f"allowed {tolerance:g} of it)")
    return err / scale


def _median_ms(fn) -> float:
    for _ in range(WARMUP):
        fn()
    times = []
    for _ in range(ITERS):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def _torch_cuda(path: Path, inputs: tuple, half: bool = False) -> tuple[float, torch.Tensor]:
    """torch CUDA eager on the TorchScript at `path`; `half`: a half model, fed half inputs
    (cuBLAS / cuDNN float16 with torch's defaults), its output widened to float32."""
    # fp32 as ours and ORT compute it (torch's default lets cuDNN convs use TF32)
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    module = torch.jit.load(str(path), map_location="cuda").eval()
    args = tuple((t.half() if half else t).cuda() for t in inputs)
    with torch.no_grad():
        out = module(*args).float()

        def step():
            module(*args)
            torch.cuda.synchronize()
        return _median_ms(step), out


def _ort_webgpu(path: Path, inputs: tuple, half: bool = False) -> tuple[float, torch.Tensor]:
    """ORT's WebGPU EP on the ONNX model at `path`; `half`: a float16 model, fed float16
    inputs, its output widened to float32."""
    import onnxruntime as ort

    from codegen.bench.ort import WEBGPU, require_provider

    session = require_provider(ort.InferenceSession(str(path), providers=[WEBGPU]), WEBGPU)
    feed = {i.name: (t.half() if half else t).numpy()
            for i, t in zip(session.get_inputs(), inputs)}
    out = torch.from_numpy(session.run(None, feed)[0]).float()
    return _median_ms(lambda: session.run(None, feed)), out


def run(folder: Path, profile: bool = False, fp16: bool = False) -> None:
    expected = {path.name.removesuffix(".expected.pt"): torch.load(path, weights_only=False)
                for path in sorted(folder.glob("*.expected.pt"))}
    if not expected:
        raise SystemExit(f"{folder}: no <model>.expected.pt (run `pack` first)")
    if fp16:
        from latency_fp16 import run_fp16

        run_fp16(folder, expected, profile)
        return
    # "copies ms": ours with every view copying into a buffer of its own (the runner's
    # --copy-views: ExecuTorch's memory plan instead of views sharing their input's buffer)
    # "freed MiB": GPU memory freed after load (raw weights once packed)
    print(f"{'model':18} {'ours ms':>9} {'copies ms':>9} {'ORT WebGPU ms':>14} "
          f"{'torch CUDA ms':>14} {'ours/ORT':>9} {'ours/torch':>10} {'freed MiB':>9}  "
          "(errors ours / copies / ORT / torch)")
    failed = []
    for name, entry in expected.items():
        try:
            _time_model(folder, name, entry)
        except OutputMismatch as e:  # reported, and the run fails at its end
            print(e, flush=True)
            failed.append(name)
    if failed:
        raise SystemExit(f"outputs off for {', '.join(failed)}: their times are not reported")
    if profile:
        for name, entry in expected.items():
            _profile_model(folder, name, entry)


PROFILE_TOP = 12  # kernels listed per model


def _profile_model(folder: Path, name: str, entry: dict, suffix: str = "") -> None:
    """Our GPU time per kernel for one execute of `{name}{suffix}.pte` (the runner's
    --profile: each dispatch in a compute pass of its own, so the sum exceeds a plain
    execute's GPU time)."""
    from codegen.et.pte import profile_table, run_pte

    _, latency = run_pte(_restored(folder, name) / f"{name}{suffix}.pte", entry["inputs"],
                         iters=10, warmup=2, profile=True)
    print(f"{name}{suffix}: " + "\n".join(profile_table(latency.kernel_times, PROFILE_TOP)),
          flush=True)


def _time_model(folder: Path, name: str, entry: dict) -> None:
    from codegen.et.pte import run_pte

    inputs, want = entry["inputs"], entry["output"]
    files = _restored(folder, name)
    outputs, latency = run_pte(files / f"{name}.pte", inputs, iters=ITERS, warmup=WARMUP)
    errors = [_check(name, "the .pte", outputs[0], want)]
    copied, copying = run_pte(files / f"{name}.pte", inputs, iters=ITERS, warmup=WARMUP,
                              copy_views=True)
    errors.append(_check(name, "the .pte, views copied", copied[0], want))
    ort_ms, ort_out = _ort_webgpu(files / f"{name}.onnx", inputs)
    errors.append(_check(name, "ORT", ort_out, want))
    torch_ms, torch_out = _torch_cuda(files / f"{name}.pt", inputs)
    errors.append(_check(name, "torch", torch_out, want))
    ours = latency.median_ms
    print(f"{name:18} {ours:9.3f} {copying.median_ms:9.3f} {ort_ms:14.3f} {torch_ms:14.3f} "
          f"{ort_ms / ours:9.2f} {torch_ms / ours:10.2f} "
          f"{latency.freed_constant_bytes / 2**20:9.1f}  "
          f"(errors {' / '.join(f'{e:.1e}' for e in errors)})", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=("pack", "run"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("--models", nargs="*", default=[])
    parser.add_argument("--realistic", action="store_true",
                        help="pack: realistic_models.py's models, large weights stripped")
    parser.add_argument("--profile", action="store_true",
                        help="run: then our GPU time per kernel for each model")
    parser.add_argument("--fp16", action="store_true",
                        help="pack: also the float16 twins; run: the float16 table")
    a = parser.parse_args()
    if a.mode == "pack":
        pack(a.folder, a.models, a.realistic, a.fp16)
    else:
        run(a.folder, a.profile, a.fp16)
    return 0


if __name__ == "__main__":
    sys.exit(main())
