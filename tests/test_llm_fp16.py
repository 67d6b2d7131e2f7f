"""LLMs exported with the Vulkan partitioner's force_fp16 (`export_llama ...
--vulkan-force-fp16`: every float32 tensor of the delegate float16, activations, scales,
KV cache and logits included; the logits reach the host as float32), generating tokens
on the native delegate. The Llama params of tests/test_llm.py (2 layers, dim 64, random
checkpoint), both recipes, exported in parallel (about a minute of a 2-core machine).

Checks: every operator delegated (`opgen coverage`: 0 missing, so the file loads:
embedding_q4gsw, linear_q4gsw / linear_dq8ca_q4gsw, choose_qparams_affine, rms_norm,
apply_rotary_emb and sdpa_with_kv_cache in float16); the prefill's and each decode
step's logits against the eager float32 model (the module export_llama exports) fed the
same tokens (greedy choices may differ at near-ties of a random model, so the eager
model takes the program's tokens); no compute pipeline created per token.

Tolerances, max |logit difference| over all steps (logits about 2 in size):
- 4w: 5e-3 (measured 1.4e-3: half activations and KV cache, float32 sums);
- 8da4w: 3e-2 (measured 1.4e-2): the half activations move rows across int8
  quantization steps more often than float32 ones (float32: 1e-2, tests/test_llm.py).
Needs the `executorch` package and build/webgpu_llm_runner.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("executorch")

from codegen.et import llm_export as L  # noqa: E402
from codegen.et.export import pte_coverage  # noqa: E402
from codegen.et.llm import generate  # noqa: E402

RECIPES = ("4w", "8da4w")
TOLERANCE = {"4w": 5e-3, "8da4w": 3e-2}
NEW_TOKENS = 8


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """{recipe: (pte, eager float32 model)}, the exports running at once."""
    folder = tmp_path_factory.mktemp("llama_fp16")
    params = L.llama_params()
    params_path = L.write_params(params, folder / "params.json")
    ckpt = folder / "ckpt.pth"
    L.random_checkpoint(params, ckpt)
    pending = {r: L.start_export(params_path, ckpt, folder / f"{r}.pte", r, fp16=True)
               for r in RECIPES}
    eager = {r: L.eager_model(params_path, ckpt, r) for r in RECIPES}
    return {r: (job.wait(), eager[r]) for r, job in pending.items()}


@pytest.mark.parametrize("recipe", RECIPES)
def test_fully_delegated(exports, recipe):
    coverage = pte_coverage(exports[recipe][0])
    assert coverage.fully_delegated and not coverage.missing, coverage.table()


@pytest.mark.parametrize("recipe", RECIPES)
def test_logits_match_eager_float32(exports, recipe):
    pte, eager = exports[recipe]
    prompt = [1, 2, 3, 4, 5, 6, 7]
    gen = generate(pte, prompt, NEW_TOKENS)
    tokens, logits = L.eager_generate(eager, prompt, NEW_TOKENS, forced=gen.tokens)
    assert tokens == gen.tokens
    err = np.abs(gen.logits - logits).max(axis=1)
    assert err.max() <= TOLERANCE[recipe], (
        f"max logit error per step {np.array2string(err, precision=4)} (scale "
        f"{np.abs(logits).max():.3g})")
    assert gen.pipelines_after == gen.pipelines_at_load
