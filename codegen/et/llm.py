"""Greedy generation with an LLM from ExecuTorch's own export (`export_llama ... --vulkan`)
on the native WebGPU delegate, through `webgpu_llm_runner` (built by CMake with
WEBGPU_EXECUTORCH=ON).

    gen = generate("model.pte", [1, 2, 3], new_tokens=16)
    gen.tokens, gen.prefill_tok_s, gen.decode_tok_s, gen.dispatches_per_token

The runner loads the program once, runs the prompt (in chunks of the exported sequence
length), then one token per call with `input_pos` live; the KV caches stay in the
delegate. Every figure is the runner's host clock, each call including its logits'
readback; on a CPU adapter (lavapipe) they say nothing about a GPU. `opgen llm` is the
command (`--json` writes the figures, `--profile` the GPU time per kernel).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from codegen.et.export import read_pte
from codegen.et.pte import PteError, positive_int, profile_table
from codegen.paths import built_executable


@dataclass
class Generation:
    """What one generation did (the runner's manifest)."""

    device: str
    prompt: list[int]
    tokens: list[int]  # the generated token ids
    logits: object  # numpy float32 [len(tokens), vocab]: what each token was chosen from
    prefill_ms: float
    prefill_tok_s: float
    decode_ms: list[float]  # per decode step
    decode_tok_s: float
    dispatches_per_token: int  # dispatches and copies one decode step records
    pipelines_at_load: int  # compute pipelines the device created by the end of the load
    pipelines_after: int  # ... and after the last token (equal: none per token)
    max_seq_len: int
    # profile=True: per kernel, {"dispatches", "gpu_ms"} per decode step (GPU timestamps)
    kernel_times: dict[str, dict[str, float]] = field(default_factory=dict)


def llm_runner_path() -> Path:
    try:
        return built_executable("webgpu_llm_runner", "OPGEN_LLM_RUNNER",
                                "build with the executorch package installed and CMake >= "
                                "3.28 (WEBGPU_EXECUTORCH=ON)")
    except FileNotFoundError as e:
        raise PteError(str(e)) from None


def generate(path: str | Path, prompt: list[int], new_tokens: int = 16, *,
             warmup: int = 0, profile: bool = False, env: dict[str, str] | None = None,
             timeout: float = 1800) -> Generation:
    """Greedy generation of `new_tokens` after `prompt` (token ids), the prompt first run
    `warmup` more times untimed; `env` adds to the runner's environment. PteError with
    the runner's message when the program does not load or run."""
    import numpy as np

    if not prompt or any(not isinstance(t, int) or t < 0 for t in prompt):
        raise ValueError(f"prompt must be a non-empty list of token ids (got {prompt!r})")
    with tempfile.TemporaryDirectory(prefix="opgen_llm_") as tmp:
        out = Path(tmp) / "out"
        cmd = [str(llm_runner_path()), str(path), "--prompt-ids", ",".join(map(str, prompt)),
               "--new-tokens", str(new_tokens), "--out", str(out), "--warmup", str(warmup)]
        cmd += ["--profile"] if profile else []
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                             env={**os.environ, **(env or {})})
        if res.returncode != 0:
            error = out / "error.txt"
            message = error.read_text().strip() if error.exists() else res.stderr.strip()
            raise PteError(message or f"webgpu_llm_runner exited {res.returncode}")
        m = json.loads((out / "manifest.json").read_text())
        logits = np.fromfile(out / "logits.bin", dtype=np.float32).reshape(
            len(m["tokens"]), m["vocab"])
    return Generation(m["device"], m["prompt"], m["tokens"], logits, m["prefill_ms"],
                      m["prefill_tok_s"], m["decode_ms"], m["decode_tok_s"],
                      m["dispatches_per_token"], m["pipelines_at_load"], m["pipelines_after"],
                      m["max_seq_len"], m.get("kernel_times", {}))


# --- command line (opgen llm) ----------------------------------------------------------------
def token_ids(text: str) -> list[int]:
    """An argparse type: comma-separated token ids."""
    import argparse

    try:
        ids = [int(t) for t in text.split(",")]
    except ValueError:
        ids = []
    if not ids or min(ids) < 0:
        raise argparse.ArgumentTypeError(f"expected comma-separated token ids, got {text!r}")
    return ids


def count(text: str) -> int:
    """An argparse type: an integer >= 0."""
    import argparse

    value = int(text) if text.strip().isdigit() else -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


def add_parser(sub) -> None:
    p = sub.add_parser("llm", help="greedy generation with an LLM exported by ExecuTorch's "
                                   "export_llama (--vulkan) on the native WebGPU delegate")
    p.add_argument("pte", help="the .pte export_llama wrote")
    p.add_argument("--prompt-ids", type=token_ids, required=True,
                   help="the prompt's token ids, comma-separated (e.g. 1,2,3)")
    p.add_argument("--new-tokens", type=positive_int, default=16,
                   help="tokens to generate (default 16)")
    p.add_argument("--warmup", type=count, default=0, metavar="N",
                   help="run the prompt N more times first, untimed (default 0)")
    p.add_argument("--profile", action="store_true",
                   help="time every dispatch on the GPU (timestamp queries; the rates are "
                        "then a profiled run's)")
    p.add_argument("--json", metavar="FILE", help="write the figures and tokens as JSON")


def cmd_llm(args) -> int:
    read_pte(args.pte)  # InputError when it is not there or not a program
    gen = generate(args.pte, args.prompt_ids, args.new_tokens, warmup=args.warmup,
                   profile=args.profile)
    print(f"{args.pte} on {gen.device}")
    print(f"tokens: {','.join(map(str, gen.tokens))}")
    print(f"prefill: {len(gen.prompt)} tokens in {gen.prefill_ms:.2f} ms "
          f"({gen.prefill_tok_s:.1f} tok/s)")
    print(f"decode: {len(gen.decode_ms)} tokens, {gen.decode_tok_s:.1f} tok/s, "
          f"{gen.dispatches_per_token} dispatches per token")
    print(f"pipelines: {gen.pipelines_at_load} created by the load, "
          f"{gen.pipelines_after - gen.pipelines_at_load} while generating")
    if args.profile:
        print("\n".join(profile_table(gen.kernel_times)).replace("per execute",
                                                                  "per decode step"))
    if args.json:
        Path(args.json).write_text(json.dumps({
            k: v for k, v in gen.__dict__.items() if k != "logits"}, indent=1))
    return 0
