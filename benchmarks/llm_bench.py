"""Tokens per second of a realistic-size 4-bit LLM from ExecuTorch's own export, on the
native WebGPU delegate of a GPU machine (webgpu_llm_runner), against the weight-bandwidth
limit.

    python benchmarks/llm_bench.py pack DIR [--layers 16] [--recipe 4w] [--fp16]   # here
    python benchmarks/llm_bench.py runner DIR                              # here, rebuilt runner
    python benchmarks/llm_bench.py run DIR OUT                             # there
    python benchmarks/llm_bench.py report OUT/llm.json                     # the table

pack (needs ExecuTorch and build/webgpu_llm_runner): a Llama-3.2-1B-shaped params.json
(dim 2048, 32 heads, 8 KV heads, FFN 8192, vocab 128256; --layers of them), a random
checkpoint, `python -m executorch.examples.models.llama.export_llama ... -kv
--use_sdpa_with_kv_cache --vulkan -qmode 4w -G 32 -E 4,32 --max_seq_length 512
--max_context_length 1152`; the exported constants are then reseeded and cut out
(seeded_constants.py: 0.9 GB travels as a few MB and is drawn again there, checked byte
for byte), and the runner is copied into DIR/runner with the shared libraries it links
(ExecuTorch's, wgpu-native's). runner: only that copy, into an existing pack (the .pte
holds no kernels: a rebuilt runner runs new kernels on the same export).

run (numpy only): rebuilds the .pte, then runs the runner on it: prefill of 128 and 512
tokens (after one untimed prefill), decode at context 128 and at context 1024 (64 new
tokens after a 128- or 1024-token prompt; the median step), a profiled decode (GPU time
per kernel per token), and polls nvidia-smi for the peak GPU memory. Writes OUT/llm.json.

Bandwidth limit: a decode step reads every linear's packed weights and scales once
(the embedding only one row) and the KV cache up to the position: bytes per token / 4.8
TB/s (H200 HBM3e) is the fastest a step can be; the report gives tok/s as a share of it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

HBM_BYTES_PER_S = 4.8e12  # H200
LLAMA_1B = {"dim": 2048, "n_layers": 16, "n_heads": 32, "n_kv_heads": 8,
            "vocab_size": 128256, "multiple_of": 256, "ffn_dim_multiplier": 1.5,
            "norm_eps": 1e-5, "rope_theta": 500000.0, "use_scaled_rope": True}
CHUNK, CONTEXT = 512, 1152  # --max_seq_length, --max_context_length
GROUP = 32
NEW_TOKENS = 64


def timed_runs(new_tokens: int = NEW_TOKENS) -> tuple:
    """The runs every LLM benchmark times (llm_ort.py and llm_torch.py too): (key, prompt
    tokens, new tokens, untimed prefills of the prompt first)."""
    return (("prefill128_decode_ctx128", 128, new_tokens, 1), ("prefill512", 512, 1, 1),
            ("decode_ctx1024", 1024, new_tokens, 0))


def prompt_ids(n: int, vocab: int = 128000) -> list[int]:
    """The benchmarks' prompt of n token ids, the same for every runtime."""
    return [(7 * i + 1) % min(vocab, 128000) for i in range(n)]


def model_name(layers: int, recipe: str, fp16: bool = False) -> str:
    return f"llama1b_{layers}l_{recipe}" + ("_fp16" if fp16 else "")


def weight_bytes(params: dict, scale_bytes: int = 4) -> dict:
    """Bytes a decode step reads of the 4-bit group-quantized linears (packed nibbles +
    one scale per GROUP weights), per layer and for the output projection."""
    d, hd = params["dim"], params["dim"] // params["n_heads"]
    kv = params["n_kv_heads"] * hd
    ffn = 8192  # int(2 * 4 * d / 3 * 1.5) rounded up to multiple_of: Llama-3.2-1B's
    per_layer = d * d * 2 + d * kv * 2 + 3 * d * ffn
    per_weight = 0.5 + scale_bytes / GROUP
    return {"layer": per_layer * per_weight, "output": d * params["vocab_size"] * per_weight,
            "kv_per_position": params["n_layers"] * 2 * kv * 4}


def runner_bundle(dest: Path) -> None:
    """build/webgpu_llm_runner and the shared libraries it links from the venv."""
    runner = ROOT / "build" / "webgpu_llm_runner"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(runner, dest / runner.name)
    ldd = subprocess.run(["ldd", str(runner)], capture_output=True, text=True, check=True)
    for line in ldd.stdout.splitlines():
        parts = line.split("=>")
        if len(parts) == 2 and "site-packages" in parts[1]:
            lib = Path(parts[1].split("(")[0].strip())
            shutil.copy2(lib.resolve(), dest / lib.name)


def pack(folder: Path, layers: int, recipe: str, work: Path, fp16: bool = False) -> None:
    import seeded_constants
    import seeded_weights

    from codegen.et import llm_export as L

    folder.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    name = model_name(layers, recipe, fp16)
    params = dict(LLAMA_1B, n_layers=layers)
    params_path = L.write_params(params, work / f"{name}.params.json")
    pte = work / f"{name}.pte"
    if not pte.exists():  # an earlier pack's export is reused (reseeding it again is fine)
        t0 = time.time()
        ckpt = L.random_checkpoint(params, work / f"{name}.ckpt.pth", max_seq_len=CONTEXT)
        L.export_llm(params_path, ckpt, pte, recipe, GROUP, CHUNK, max_context_len=CONTEXT,
                     timeout=7200, fp16=fp16)
        print(f"exported {pte} ({pte.stat().st_size / 1e6:.1f} MB) in {time.time() - t0:.0f} s")
        ckpt.unlink()
    weights, entry = seeded_constants.reseed_pte(pte)
    kept = Path(f"{pte}.kept")
    shutil.move(kept, folder / kept.name)
    seeded_weights.write_manifest(folder, name, weights, {pte.name: entry})
    reseeded = sum(s.get("size", 4 * s.get("count", 0)) for s in weights.values())
    info = {"model": name, "params": params, "recipe": recipe, "group_size": GROUP,
            "max_seq_len": CHUNK, "max_context_len": CONTEXT, "pte_bytes": entry["size"],
            "fp16": fp16, "constant_bytes": reseeded,
            "read_per_token": weight_bytes(params, scale_bytes=2 if fp16 else 4)}
    (folder / f"{name}.info.json").write_text(json.dumps(info, indent=1))
    runner_bundle(folder / "runner")
    print(f"{folder}: {name}.pte.kept ({(folder / kept.name).stat().st_size / 1e6:.2f} MB), "
          f"{len(weights)} reseeded constants ({reseeded / 1e6:.1f} MB), runner bundle")


# --- on the GPU machine ---------------------------------------------------------------------
class PeakMemory:
    """The largest memory.used nvidia-smi reports while it runs (MiB; None without it)."""

    def __init__(self):
        self.peak, self._stop = None, threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self):
        while not self._stop.is_set():
            try:
                out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used",
                                      "--format=csv,noheader,nounits"], capture_output=True,
                                     text=True, timeout=5).stdout.split()
                used = max(int(v) for v in out) if out else None
            except (OSError, ValueError, subprocess.TimeoutExpired):
                return
            if used is not None:
                self.peak = max(self.peak or 0, used)
            self._stop.wait(0.2)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def generate(runner: Path, pte: Path, prompt_len: int, new_tokens: int, out: Path,
             warmup: int = 0, profile: bool = False, per_submit: int | None = None) -> dict:
    prompt = ",".join(map(str, prompt_ids(prompt_len)))
    cmd = [str(runner), str(pte), "--prompt-ids", prompt, "--new-tokens", str(new_tokens),
           "--out", str(out), "--warmup", str(warmup)] + (["--profile"] if profile else []) \
        + ([] if per_submit is None else ["--dispatches-per-submit", str(per_submit)])
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if res.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:2])} ... failed: {res.stderr.strip()[-2000:]}")
    m = json.loads((out / "manifest.json").read_text())
    m.pop("prompt")
    decode = m["decode_ms"]
    m["decode_median_ms"] = statistics.median(decode) if decode else None
    print(f"prompt {prompt_len:5d}, {new_tokens:3d} new: prefill {m['prefill_tok_s']:9.1f} tok/s"
          + (f", decode median {1000 / m['decode_median_ms']:8.1f} tok/s" if decode else "")
          + f", {m['dispatches_per_token']} dispatches per token"
          + ("" if per_submit is None else f" ({per_submit or 'all'} per submit)"), flush=True)
    return m


def run(folder: Path, out: Path) -> None:
    import seeded_weights

    out.mkdir(parents=True, exist_ok=True)
    info = json.loads(next(folder.glob("*.info.json")).read_text())
    restored = Path("/tmp/llm_bench")
    seeded_weights.restore_model(folder, info["model"], restored)
    pte = restored / f"{info['model']}.pte"
    runner = (folder / "runner" / "webgpu_llm_runner").resolve()
    os.environ["LD_LIBRARY_PATH"] = str((folder / "runner").resolve())
    results = {"info": info, "runs": {}}
    with PeakMemory() as memory:
        for key, prompt, new, warmup in timed_runs():
            results["runs"][key] = generate(runner, pte, prompt, new, out / key, warmup)
        # the same decode with every dispatch of a step in one submit (the runtime's
        # default submits every 64 as they are recorded)
        results["runs"]["decode_ctx128_one_submit"] = generate(
            runner, pte, 128, NEW_TOKENS, out / "one_submit", 1, per_submit=0)
        results["runs"]["profile_ctx128"] = generate(runner, pte, 128, 16, out / "profile",
                                                     profile=True)
        results["runs"]["profile_prefill512"] = generate(runner, pte, 512, 1,
                                                         out / "profile_prefill", profile=True)
    results["peak_gpu_mib"] = memory.peak
    (out / "llm.json").write_text(json.dumps(results, indent=1))
    report(out / "llm.json")


def report(path: Path) -> None:
    r = json.loads(path.read_text())
    info, runs = r["info"], r["runs"]
    b = info["read_per_token"]
    layers = info["params"]["n_layers"]
    print(f"{info['model']} ({layers} layers of Llama-3.2-1B's shape, {info['recipe']}, "
          f"{info['pte_bytes'] / 1e6:.0f} MB .pte) on {runs['prefill512']['device']}")
    for key, label, ctx in (("prefill128_decode_ctx128", "decode at context 128", 128),
                            ("decode_ctx1024", "decode at context 1024", 1024)):
        m = runs[key]
        tok_s = 1000 / m["decode_median_ms"]
        read = b["layer"] * layers + b["output"] + b["kv_per_position"] * (ctx + NEW_TOKENS / 2)
        limit = HBM_BYTES_PER_S / read
        print(f"  {label:24s} {tok_s:8.1f} tok/s (median step {m['decode_median_ms']:.3f} ms); "
              f"{read / 1e6:.0f} MB read per token, limit {limit:.0f} tok/s: "
              f"{100 * tok_s / limit:.1f} %")
    for key, n in (("prefill128_decode_ctx128", 128), ("prefill512", 512)):
        print(f"  prefill {n:4d} tokens        {runs[key]['prefill_tok_s']:8.1f} tok/s "
              f"({runs[key]['prefill_ms']:.2f} ms)")
    p = runs["profile_ctx128"]
    print(f"  dispatches per decode token: {p['dispatches_per_token']}; pipelines created while "
          f"generating: {p['pipelines_after'] - p['pipelines_at_load']}; peak GPU memory "
          f"{r.get('peak_gpu_mib')} MiB")
    times = sorted(p["kernel_times"].items(), key=lambda kv: -kv[1]["gpu_ms"])
    total = sum(t["gpu_ms"] for _, t in times)
    print(f"  profiled decode step (each dispatch in its own pass): {total:.3f} ms GPU")
    for kernel, t in times[:8]:
        print(f"    {kernel:28s} {t['gpu_ms']:7.3f} ms {100 * t['gpu_ms'] / total:5.1f} % "
              f"{t['dispatches']:5g} dispatches")
    grids = sorted(p.get("dispatch_times", {}).items(), key=lambda kv: -kv[1]["gpu_ms"])
    print("  by kernel and grid (us per dispatch):")
    for kernel, t in grids[:12]:
        print(f"    {kernel:40s} {t['gpu_ms']:7.3f} ms {t['dispatches']:5g} x "
              f"{1000 * t['gpu_ms'] / t['dispatches']:7.1f} us")
    if "profile_prefill512" in runs:
        pre = runs["profile_prefill512"]
        grids = sorted(pre["prefill_dispatch_times"].items(), key=lambda kv: -kv[1]["gpu_ms"])
        print(f"  profiled prefill of 512 tokens: "
              f"{sum(t['gpu_ms'] for _, t in grids):.3f} ms GPU "
              f"({pre['prefill_ms']:.2f} ms as profiled); by kernel and grid:")
        for kernel, t in grids[:12]:
            print(f"    {kernel:40s} {t['gpu_ms']:7.3f} ms {t['dispatches']:5g} x "
                  f"{1000 * t['gpu_ms'] / t['dispatches']:7.1f} us")
    for key in ("prefill128_decode_ctx128", "decode_ctx128_one_submit"):
        if key in runs and runs[key].get("decode_host_ms"):
            print(f"  {key}: median step {runs[key]['decode_median_ms']:.3f} ms; its execute on "
                  "the host (median ms): " +
                  ", ".join(f"{k} {v:.3f}" for k, v in runs[key]["decode_host_ms"].items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack")
    p.add_argument("folder", type=Path)
    p.add_argument("--layers", type=int, default=16)
    p.add_argument("--recipe", default="4w", choices=("4w", "8da4w"))
    p.add_argument("--fp16", action="store_true",
                   help="export with --vulkan-force-fp16 (float16 activations and scales)")
    p.add_argument("--work", type=Path, default=Path("/tmp/opgen_llm_bench"),
                   help="where the checkpoint and the full .pte are written")
    b = sub.add_parser("runner")
    b.add_argument("folder", type=Path)
    r = sub.add_parser("run")
    r.add_argument("folder", type=Path)
    r.add_argument("out", type=Path)
    s = sub.add_parser("report")
    s.add_argument("json", type=Path)
    args = parser.parse_args()
    if args.command == "pack":
        pack(args.folder, args.layers, args.recipe, args.work, args.fp16)
    elif args.command == "runner":
        runner_bundle(args.folder / "runner")
    elif args.command == "run":
        run(args.folder, args.out)
    else:
        report(args.json)


if __name__ == "__main__":
    main()
