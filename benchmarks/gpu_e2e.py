"""The end-to-end models on a GPU machine that cannot install ExecuTorch's Python side.

    python benchmarks/gpu_e2e.py pack DIR      # here: export each model to DIR/<name>.pte,
                                               # with its inputs and eager outputs
    python benchmarks/gpu_e2e.py run DIR OUT   # there: run each .pte on the native delegate
                                               # (build/webgpu_pte_runner), save outputs + latency
                                               # (also with constant dispatches rerun on every
                                               # execute: the runner's --rerun-constants)
    python benchmarks/gpu_e2e.py compare DIR OUT   # here: max abs error vs eager PyTorch
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import torch  # noqa: E402

MODELS = ["cnn_stem", "cnn_stem_pool_bn", "davit_stem", "decoder", "detect_head",
          "attention_block", "hf_resnet", "hf_mobilenet_v2", "hf_convnext", "hf_vit", "hf_siglip",
          "hf_davit", "hf_llama", "hf_swin", "hf_beit", "hf_t5_encoder", "hf_bloom", "hf_levit",
          "hf_wav2vec2", "hf_whisper_encoder", "hf_bloom_kv", "hf_llama_kv",
          "hf_stablelm", "hf_phi3"]


def pack(folder: Path, names: list[str]) -> None:
    import e2e_models

    from codegen.et.compare import eager_outputs
    from codegen.et.export import export

    folder.mkdir(parents=True, exist_ok=True)
    bundle = {}
    for name in names or MODELS:
        model, inputs = getattr(e2e_models, name)()
        result = export(model, inputs, folder / f"{name}.pte")
        with torch.no_grad():
            expected = model(*inputs)
        expected = [t for _, t in eager_outputs(expected)]  # as torch.export flattens it
        bundle[name] = {"inputs": inputs, "expected": expected,
                        "delegated": result.coverage.fully_delegated}
    torch.save(bundle, folder / "bundle.pt")


def run(folder: Path, out: Path) -> None:
    from codegen.et.pte import run_pte

    bundle = torch.load(folder / "bundle.pt", weights_only=False)
    results = {}
    for name, entry in bundle.items():
        try:
            outputs, latency = run_pte(folder / f"{name}.pte", entry["inputs"], iters=50, warmup=5)
            _, rerun = run_pte(folder / f"{name}.pte", entry["inputs"], iters=50, warmup=5,
                               rerun_constants=True)
            results[name] = {"outputs": outputs, "latency_ms": latency.median_ms,
                             "rerun_constants_ms": rerun.median_ms,
                             "constant_dispatches": latency.constant_dispatches,
                             "device": latency.device}
            print(f"{name:20} median {latency.median_ms:.3f} ms on {latency.device} "
                  f"({latency.constant_dispatches} constant dispatches run once at load; "
                  f"{rerun.median_ms:.3f} ms with them rerun on every execute)", flush=True)
        except Exception as e:  # reported by `compare`
            results[name] = {"error": f"{type(e).__name__}: {e}"}
            print(f"{name:20} FAILED {e}", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    torch.save(results, out / "gpu_e2e.pt")


def compare(folder: Path, out: Path) -> int:
    import e2e_models

    bundle = torch.load(folder / "bundle.pt", weights_only=False)
    results = torch.load(out / "gpu_e2e.pt", weights_only=False)
    failed = 0
    for name, entry in bundle.items():
        r = results[name]
        if "error" in r:
            print(f"{name:20} FAILED {r['error']}")
            failed += 1
            continue
        checks = [e2e_models.eager_mismatch(g, w) for g, w in zip(r["outputs"], entry["expected"])]
        err = max((e for e, _ in checks), default=0.0)
        whys = [f"output {i}: {why}" for i, (_, why) in enumerate(checks) if why]
        if len(r["outputs"]) != len(entry["expected"]):
            whys.append(f"{len(r['outputs'])} outputs, eager's {len(entry['expected'])}")
        failed += bool(whys)
        print(f"{name:20} max abs error {err:.2e}  median {r['latency_ms']:.3f} ms  "
              f"{'FAILED ' + '; '.join(whys) if whys else 'ok'}  ({r['device']})")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=("pack", "run", "compare"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("out", nargs="?", help="run/compare: the results folder")
    parser.add_argument("--models", nargs="*", default=[], help="pack: these models only")
    a = parser.parse_args()
    if a.mode == "pack":
        pack(a.folder, a.models)
        return 0
    if a.mode == "run":
        run(a.folder, Path(a.out))
        return 0
    return compare(a.folder, Path(a.out))


if __name__ == "__main__":
    sys.exit(main())
