"""LLMs through ExecuTorch's own flow: export with `export_llama` as a user would, and the
eager model it exports (the source-transformed, quantized PyTorch module) as the
reference the delegate is checked against.

    params = llama_params(dim=64, n_layers=2, ...)          # a params.json's fields
    ckpt = random_checkpoint(params, folder / "ckpt.pth")   # every weight defined
    export_llm(params, ckpt, folder / "m.pte", recipe="4w")
    model = eager_model(params, ckpt, recipe="4w")
    tokens, logits = eager_generate(model, [1, 2, 3], new_tokens=16)

Why a checkpoint: without one, export_llama builds the model on the meta device and
`to_empty`s it, re-initializing only modules that have `reset_parameters`; RMSNorm's
weights and the RoPE tables stay uninitialized memory, so a "random weights" export
computes garbage (NaN logits). `random_checkpoint` saves a normally initialized model's
state dict, which both the export and the eager model load.

Recipes: "4w" (`-qmode 4w`: 4-bit group-symmetric weights, `linear_q4gsw`) and "8da4w"
(int8 dynamic per-token activations too: `choose_qparams_affine` + `linear_dq8ca_q4gsw`);
both with 4-bit embeddings (`-E 4,<group>`), `-kv --use_sdpa_with_kv_cache --vulkan`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

RECIPES = ("4w", "8da4w")
EXPORT_MODULE = "executorch.examples.models.llama.export_llama"


class LlmExportError(RuntimeError):
    """export_llama failed (the message ends with its last output lines)."""


def llama_params(**fields: Any) -> dict:
    """A params.json for export_llama: Llama-style defaults, `fields` on top."""
    params = {"dim": 64, "n_layers": 2, "n_heads": 4, "n_kv_heads": 2, "vocab_size": 256,
              "multiple_of": 32, "ffn_dim_multiplier": 1.0, "norm_eps": 1e-5,
              "rope_theta": 500000.0, "use_scaled_rope": False}
    params.update(fields)
    return params


def qwen3_params(**fields: Any) -> dict:
    """A Qwen3-shaped params.json: HF rotate-half RoPE, RMSNorm on q and k before RoPE,
    an explicit head_dim and FFN width."""
    params = {"dim": 64, "n_layers": 2, "n_heads": 4, "n_kv_heads": 2, "head_dim": 16,
              "hidden_dim": 128, "vocab_size": 256, "norm_eps": 1e-6, "rope_theta": 1e6,
              "use_scaled_rope": False, "use_hf_rope": True, "use_qk_norm": True,
              "qk_norm_before_rope": True, "attention_qkv_bias": False}
    params.update(fields)
    return params


def write_params(params: dict, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(json.dumps(params, indent=1))
    return path


def random_checkpoint(params: dict, path: str | Path, max_seq_len: int = 64,
                      seed: int = 0) -> Path:
    """A state dict of the model `params` describes, every weight initialized (normal
    init, seeded): what export_llama and the eager reference both load."""
    import torch
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs

    torch.manual_seed(seed)
    model = construct_transformer(ModelArgs(**params, max_seq_len=max_seq_len,
                                            max_context_len=max_seq_len))
    torch.save(model.state_dict(), path)
    return Path(path)


def export_args(params_path: str | Path, checkpoint: str | Path, recipe: str = "4w",
                group_size: int = 32, max_seq_len: int = 64, model: str = "",
                max_context_len: int | None = None) -> list[str]:
    """export_llama's command-line arguments for a recipe (without --output_name):
    prompts run in chunks of up to `max_seq_len` tokens, the KV cache holds
    `max_context_len` positions (default: max_seq_len)."""
    if recipe not in RECIPES:
        raise ValueError(f"recipe must be one of {', '.join(RECIPES)} (got {recipe!r})")
    args = ["--params", str(params_path), "--checkpoint", str(checkpoint), "-kv",
            "--use_sdpa_with_kv_cache", "--vulkan", "-qmode", recipe, "-G", str(group_size),
            "-E", f"4,{group_size}", "--max_seq_length", str(max_seq_len),
            "--max_context_length", str(max_context_len or max_seq_len)]
    return args + (["--model", model] if model else [])


class PendingExport:
    """An export_llama run in a subprocess of its own (start_export); `wait()` gives the
    .pte (several exports overlap on a machine with several cores)."""

    def __init__(self, cmd: list[str], output: Path, timeout: float):
        self.output, self.timeout = output, timeout
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, cwd=output.parent)

    def wait(self) -> Path:
        try:
            log, _ = self.proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            raise LlmExportError(f"export_llama took more than {self.timeout:g} s") from None
        if self.proc.returncode != 0 or not self.output.exists():
            tail = "\n".join(log.strip().splitlines()[-15:])
            raise LlmExportError(f"export_llama exited {self.proc.returncode}:\n{tail}")
        return self.output


def start_export(params_path: str | Path, checkpoint: str | Path, output: str | Path,
                 recipe: str = "4w", group_size: int = 32, max_seq_len: int = 64,
                 model: str = "", max_context_len: int | None = None,
                 timeout: float = 1800) -> PendingExport:
    """Starts `python -m executorch.examples.models.llama.export_llama ...` writing
    `output`."""
    output = Path(output).resolve()
    cmd = [sys.executable, "-m", EXPORT_MODULE,
           *export_args(params_path, checkpoint, recipe, group_size, max_seq_len, model,
                        max_context_len), "--output_name", str(output)]
    return PendingExport(cmd, output, timeout)


def export_llm(*args, **kwargs) -> Path:
    """export_llama writing the .pte (start_export's arguments), waited for."""
    return start_export(*args, **kwargs).wait()


def eager_model(params_path: str | Path, checkpoint: str | Path, recipe: str = "4w",
                group_size: int = 32, max_seq_len: int = 64, model: str = ""):
    """The module export_llama exports, in PyTorch: its source transforms applied (the
    recipe's quantization, the custom SDPA with its KV cache), not yet exported."""
    from executorch.examples.models.llama.export_llama_lib import (
        _prepare_for_llama_export, build_args_parser)
    from executorch.extension.llm.export.config.llm_config import LlmConfig

    args = build_args_parser().parse_args(export_args(params_path, checkpoint, recipe,
                                                      group_size, max_seq_len, model))
    return _prepare_for_llama_export(LlmConfig.from_args(args)).model.eval()


def eager_generate(model, prompt: list[int], new_tokens: int):
    """Greedy generation with the eager model, as webgpu_llm_runner runs the .pte (the
    prompt at once, then a token at a time); the tokens and the logits each was chosen
    from ([new_tokens, vocab], numpy)."""
    import numpy as np
    import torch

    def last_logits(tokens: list[int], pos: int):
        out = model(torch.tensor([tokens]), {"input_pos": torch.tensor([pos])})
        out = out if isinstance(out, torch.Tensor) else out[0]
        return out.reshape(-1, out.shape[-1])[-1].float()

    tokens, logits = [], []
    with torch.no_grad():
        step = last_logits(prompt, 0)
        for i in range(new_tokens):
            tokens.append(int(step.argmax()))
            logits.append(step.numpy())
            if i + 1 < new_tokens:
                step = last_logits([tokens[-1]], len(prompt) + i)
    return tokens, np.stack(logits)
