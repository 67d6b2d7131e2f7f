"""LLMs from ExecuTorch's own export flow, generating tokens on the native delegate.

Each model is exported as a user would (`python -m executorch.examples.models.llama.
export_llama --params ... --checkpoint ... -kv --use_sdpa_with_kv_cache --vulkan -qmode
<recipe> -G 32 -E 4,32`) from a small params.json and a random checkpoint, for two
decoder families (Llama: interleaved RoPE; Qwen3: HF RoPE, q/k RMSNorm) and both
recipes (4w; 8da4w with int8 dynamic activations). Checks: every operator delegated;
greedy tokens identical to the eager source-transformed model's (the module export_llama
exports) for 16 new tokens; logits within tolerance of it; one program serving prompts
of 1 and 7 tokens and every decode step with no compute pipeline created per token.

Tolerances, max |logit difference| over all steps (logits here are about 2 in size):
- 4w: 1e-4 (measured about 5e-7: the same float arithmetic, another summation order);
- 8da4w: 1e-2 (measured up to 3e-3): an activation a rounding ulp away from a
  quantization step boundary may round to the neighbouring int8 value on one side,
  moving its row's products by a whole step.
Needs the `executorch` package and build/webgpu_llm_runner (CMake, WEBGPU_EXECUTORCH=ON).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("executorch")

from codegen.et import llm_export as L  # noqa: E402
from codegen.et.export import pte_coverage  # noqa: E402
from codegen.et.llm import generate  # noqa: E402

FAMILIES = {"llama": (L.llama_params, ""), "qwen3": (L.qwen3_params, "qwen3_0_6b")}
TOLERANCE = {"4w": 1e-4, "8da4w": 1e-2}
NEW_TOKENS = 16


@pytest.fixture(scope="module", params=[(f, r) for f in FAMILIES for r in L.RECIPES],
                ids=lambda p: f"{p[0]}-{p[1]}")
def exported(request, tmp_path_factory):
    family, recipe = request.param
    make_params, model = FAMILIES[family]
    folder = tmp_path_factory.mktemp(f"{family}_{recipe}")
    params = make_params()
    params_path = L.write_params(params, folder / "params.json")
    ckpt = L.random_checkpoint(params, folder / "ckpt.pth")
    pte = L.export_llm(params_path, ckpt, folder / "model.pte", recipe, model=model)
    eager = L.eager_model(params_path, ckpt, recipe, model=model)
    return recipe, pte, eager


def test_fully_delegated(exported):
    _, pte, _ = exported
    coverage = pte_coverage(pte)
    assert coverage.fully_delegated and not coverage.missing, coverage.table()


@pytest.mark.parametrize("prompt", [[7], [1, 2, 3, 4, 5, 6, 7]], ids=["prompt1", "prompt7"])
def test_greedy_generation_matches_eager(exported, prompt):
    recipe, pte, eager = exported
    gen = generate(pte, prompt, NEW_TOKENS)
    tokens, logits = L.eager_generate(eager, prompt, NEW_TOKENS)
    assert gen.tokens == tokens
    err = float(np.abs(gen.logits - logits).max())
    assert err <= TOLERANCE[recipe], f"max logit error {err:.3g} (scale {np.abs(logits).max():.3g})"
    # the one program served the prefill and every decode step without a new pipeline
    assert gen.pipelines_after == gen.pipelines_at_load
    assert len(gen.decode_ms) == NEW_TOKENS - 1 and gen.dispatches_per_token > 0
