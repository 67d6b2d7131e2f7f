"""LLMs from ExecuTorch's own export flow, generating tokens on the native delegate.

Each model is exported as a user would (`python -m executorch.examples.models.llama.
export_llama --params ... --checkpoint ... -kv --use_sdpa_with_kv_cache --vulkan -qmode
<recipe> -G 32 -E 4,32`) from a small params.json (2 layers, dim 64, random checkpoint),
for both recipes (4w; 8da4w with int8 dynamic activations). Checks: every operator
delegated (`opgen coverage`: 0 missing); greedy tokens identical to the eager
source-transformed model's (the module export_llama exports) for 16 new tokens, and the
logits of the prefill and of every decode step within tolerance of it; one program
serving prompts of 1 and 7 tokens and every decode step with no compute pipeline created
per token (the runner counts them); each layer's q, k, v projections, gate and up
projections with the SiLU gate, and residual add + RMS norm run fused (one dispatch
each); a tensor above maxStorageBufferBindingSize fails at load naming the tensor, its
bytes and the limit; `opgen llm` prints and writes the same.

The Llama family runs by default (the exports overlap, one process each: about a minute
of a 2-core machine); OPGEN_LLM_FAMILIES=llama,qwen3 adds Qwen3 (HF rotate-half RoPE,
q/k RMSNorm: apply_rotary_emb_hf, rms_norm on the heads).

Tolerances, max |logit difference| over all steps (logits here are about 2 in size):
- 4w: 1e-4 (measured about 5e-7: the same float arithmetic, another summation order);
- 8da4w: 1e-2 (measured up to 3e-3): an activation a rounding ulp away from a
  quantization step boundary may round to the neighbouring int8 value on one side,
  moving its row's products by a whole step.
Needs the `executorch` package and build/webgpu_llm_runner (CMake, WEBGPU_EXECUTORCH=ON).
"""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

pytest.importorskip("executorch")

from codegen.cli.main import main  # noqa: E402
from codegen.et import llm_export as L  # noqa: E402
from codegen.et.export import pte_coverage  # noqa: E402
from codegen.et.llm import generate  # noqa: E402
from codegen.et.pte import PteError  # noqa: E402

FAMILIES = {"llama": (L.llama_params, ""), "qwen3": (L.qwen3_params, "qwen3_0_6b")}
SELECTED = os.environ.get("OPGEN_LLM_FAMILIES", "llama").split(",")
MODELS = [(f, r) for f in SELECTED for r in L.RECIPES]
TOLERANCE = {"4w": 1e-4, "8da4w": 1e-2}
NEW_TOKENS = 16


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """Every selected (family, recipe) exported at once, then the eager models built
    while the exports run: {(family, recipe): (pte, eager model)}."""
    unknown = set(SELECTED) - set(FAMILIES)
    assert not unknown, f"OPGEN_LLM_FAMILIES names {unknown}; known: {', '.join(FAMILIES)}"
    pending, sources = {}, {}
    for family, recipe in MODELS:
        make_params, model = FAMILIES[family]
        folder = tmp_path_factory.mktemp(f"{family}_{recipe}")
        params = make_params()
        params_path = L.write_params(params, folder / "params.json")
        ckpt = folder / "ckpt.pth"
        if not ckpt.exists():
            L.random_checkpoint(params, ckpt)
        pending[family, recipe] = L.start_export(params_path, ckpt, folder / "model.pte",
                                                 recipe, model=model)
        sources[family, recipe] = (params_path, ckpt, model)
    eager = {key: L.eager_model(p, c, key[1], model=m) for key, (p, c, m) in sources.items()}
    return {key: (job.wait(), eager[key]) for key, job in pending.items()}


@pytest.fixture(params=MODELS, ids=lambda p: f"{p[0]}-{p[1]}")
def exported(request, exports):
    pte, eager = exports[request.param]
    return request.param[1], pte, eager


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
    # row 0: the prefill's logits; rows 1..15: each decode step's
    err = np.abs(gen.logits - logits).max(axis=1)
    assert err.max() <= TOLERANCE[recipe], (
        f"max logit error per step {np.array2string(err, precision=2)} (scale "
        f"{np.abs(logits).max():.3g})")
    # the one program served the prefill and every decode step without a new pipeline
    assert gen.pipelines_after == gen.pipelines_at_load
    assert len(gen.decode_ms) == NEW_TOKENS - 1 and gen.dispatches_per_token > 0


def test_decode_runs_fused_operators(exports):
    """A decode step of the 4w export runs fused (cpp_runtime/executorch/vk_fusion.cpp):
    each layer's q, k and v projections in one GEMV dispatch; its gate and up projections
    with the SiLU-gated product (sigmoid, mul, mul in the .pte) in one; each residual add
    with the RMS norm after it in one (all but the last layer's second add, which a
    select_copy follows). The generation test above checks their tokens and logits for
    both recipes (8da4w's projections are linear_dq8ca_q4gsw: there only the SiLU gate and
    the norms fuse)."""
    pte, _ = exports[SELECTED[0], "4w"]
    layers = L.llama_params()["n_layers"]
    times = generate(pte, [5, 6], 2, profile=True).kernel_times

    def dispatches(kernel: str) -> float:
        return sum(t["dispatches"] for name, t in times.items() if name.startswith(kernel))

    assert dispatches("q4gsw_gemv_qkv") == layers, times
    assert dispatches("q4gsw_gemv_silu_mul") == layers, times
    assert dispatches("add_rms_norm") == 2 * layers - 1, times
    # the o, down and output projections stay plain GEMVs (one input row: the rows
    # kernels), the gate nowhere on its own
    assert dispatches("q4gsw_gemv_rows") == 2 * layers + 1, times
    assert dispatches("sigmoid") == dispatches("silu_mul") == 0, times
    assert dispatches("binary_broadcast") == 1, times


def test_qkv_stay_apart_where_the_device_binds_8_storage_buffers(exports):
    """The fused q, k, v GEMV binds 10 storage buffers; where the device offers WebGPU's
    default 8 the three projections run apart, with the same tokens."""
    pte, _ = exports[SELECTED[0], "4w"]
    fused = generate(pte, [5, 6], 3)
    apart = generate(pte, [5, 6], 3, env={"WEBGPU_MAX_STORAGE_BUFFERS_PER_SHADER_STAGE": "8"})
    # test_decode_runs_fused_operators names the fused kernel; here the count says it
    assert apart.dispatches_per_token == fused.dispatches_per_token + 2 * L.llama_params()[
        "n_layers"]
    assert apart.tokens == fused.tokens


def test_binding_limit_fails_at_load(exports):
    """The 4-bit embedding table (uint8 [256, 32], 8192 bytes) above a 4 KiB binding limit
    (WEBGPU_MAX_STORAGE_BUFFER_BINDING_SIZE lowers the one the runtime enforces)."""
    pte, _ = exports[SELECTED[0], "4w"]
    with pytest.raises(PteError) as e:
        generate(pte, [1, 2], 2, env={"WEBGPU_MAX_STORAGE_BUFFER_BINDING_SIZE": "4096"})
    message = str(e.value)
    assert message.startswith(f"loading {pte} method forward failed"), message
    assert re.search(r"tensor value \d+ \(uint8\[256, 32\]\) is too large for one storage "
                     r"binding .*\(got 8192 bytes, expected at most "
                     r"maxStorageBufferBindingSize 4096\)", message), message


def test_opgen_llm_command(exports, tmp_path, capsys):
    pte, _ = exports[SELECTED[0], "4w"]
    out = tmp_path / "gen.json"
    assert main(["llm", str(pte), "--prompt-ids", "3,1,4", "--new-tokens", "4", "--warmup",
                 "1", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    figures = json.loads(out.read_text())
    assert figures["prompt"] == [3, 1, 4] and len(figures["tokens"]) == 4
    assert figures["tokens"] == generate(pte, [3, 1, 4], 4).tokens
    assert f"tokens: {','.join(map(str, figures['tokens']))}" in printed
    assert "0 while generating" in printed
