"""End to end in float16: models of tests/e2e_models.py exported with `--fp16` (ExecuTorch's
Vulkan partitioner with force_fp16: every float32 tensor and weight of the delegate is
float16, the program's inputs and outputs stay float32), run by `webgpu_pte_runner`
against eager float32 by codegen.et.compare's HALF_CRITERION; and coverage of a
force_fp16 .pte, which names the calls whose specs refuse float16 exactly as the load
refuses them.

Needs the `executorch` package and build/webgpu_pte_runner (CMake, WEBGPU_EXECUTORCH=ON).
"""

from __future__ import annotations

import sys

import pytest
import torch

pytest.importorskip("executorch")

from codegen.et.compare import eager_outputs, judge  # noqa: E402
from codegen.et.coverage import pte_coverage  # noqa: E402
from codegen.et.export import export  # noqa: E402
from codegen.et.pte import PteError, run_pte  # noqa: E402
from codegen.paths import REPO_ROOT  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "tests"))
import e2e_models  # noqa: E402

# small models covering convolutions (stem, transposed, grouped), pooling, upsampling,
# RMS norm, RoPE, SDPA, permutes and the elementwise ops, and two tiny Hugging Face
# configs: ViT (layer norm, GELU, linear, bmm, _safe_softmax, cat, select) and Llama (its
# mask and position ops in float16: full, where, comparisons, embedding, to_copy)
MODELS = ["cnn_stem", "davit_stem", "decoder", "detect_head", "attention_block", "hf_vit",
          "hf_llama"]


class Mlp(torch.nn.Module):
    """The issue's example: Linear + ReLU + mul."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 16)

    def forward(self, x):
        return torch.relu(self.linear(x)) * 2.0


class MaskFillMlp(Mlp):
    """A full(-3.4e38) (torch.finfo(float32).min, as LLM masks fill), which a float16 full
    refuses as torch's float16 full does, after the MLP: exp of it is 0 in float32 on the
    CPU, and in float16 (-inf) in the delegate."""

    def forward(self, x):
        y = super().forward(x)
        return y + torch.exp(torch.full((2, 16), -3.4e38))


def _run_against_eager(pte, model, inputs):
    outputs, latency = run_pte(pte, inputs, iters=1)
    with torch.no_grad():
        expected = eager_outputs(model(*inputs))
    verdict = judge(outputs, expected, half=True)
    assert verdict.failure is None, verdict.failure
    return verdict, latency


@pytest.mark.parametrize("name", MODELS)
def test_fp16_model_fully_delegated_matches_eager_float32(name, tmp_path):
    model, inputs = getattr(e2e_models, name)()
    pte = tmp_path / f"{name}_fp16.pte"
    result = export(model, inputs, pte, fp16=True)
    assert result.coverage.fully_delegated, result.coverage_table()
    on_disk = pte_coverage(pte)
    assert on_disk.float16 and on_disk.fully_delegated, on_disk.table()
    verdict, latency = _run_against_eager(pte, model, inputs)
    print(f"\n{name} fp16: max abs error {verdict.worst:.3g}, median latency "
          f"{latency.median_ms:.3f} ms on {latency.device}")


def _force_fp16_pte(model, inputs, path):
    """The issue's export: ExecuTorch's own partitioner with force_fp16, no spec guards."""
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.exir import to_edge_transform_and_lower

    exported = torch.export.export(model.eval(), inputs)
    edge = to_edge_transform_and_lower(exported,
                                       partitioner=[VulkanPartitioner({"force_fp16": True})])
    path.write_bytes(edge.to_executorch().buffer)
    return path


def test_force_fp16_mlp_coverage_zero_missing_and_it_loads(tmp_path):
    """The issue's Linear + ReLU + mul, exported by ExecuTorch's partitioner alone: every
    call's spec takes float16, so coverage reports 0 missing and the .pte loads and runs
    (float32 in and out, float16 inside)."""
    torch.manual_seed(0)
    model, inputs = Mlp().eval(), (torch.randn(2, 8),)
    pte = _force_fp16_pte(model, inputs, tmp_path / "fp16_mlp.pte")
    coverage = pte_coverage(pte)
    assert coverage.float16 and not coverage.unsupported, coverage.table()
    assert "0 missing" in coverage.table()
    _run_against_eager(pte, model, inputs)


def test_force_fp16_coverage_names_the_call_the_load_refuses(tmp_path):
    """A call whose spec refuses it in float16 (a full of -3.4e38): coverage counts it as
    failing at load with the handler's own message, and the load fails with that message."""
    torch.manual_seed(0)
    model, inputs = MaskFillMlp().eval(), (torch.randn(2, 8),)
    pte = _force_fp16_pte(model, inputs, tmp_path / "fp16_mask_fill.pte")
    coverage = pte_coverage(pte)
    assert coverage.unsupported and len(coverage.load_rejections) == 1, coverage.table()
    rejection = coverage.load_rejections[0]
    assert rejection.target == "aten.full.default", rejection
    assert "fill_value overflows float16 (got -3.4e+38" in rejection.message
    with pytest.raises(PteError) as failed:
        run_pte(pte, inputs, iters=1)
    assert rejection.message in str(failed.value)


def test_export_fp16_keeps_a_refused_call_off_the_delegate(tmp_path):
    """`export --fp16` checks each node as the float16 call it will become: the full stays
    on ExecuTorch's CPU kernels (float32), the rest is delegated in float16, and the .pte
    runs."""
    torch.manual_seed(0)
    model, inputs = MaskFillMlp().eval(), (torch.randn(2, 8),)
    pte = tmp_path / "mask_fill_fp16.pte"
    result = export(model, inputs, pte, fp16=True)
    assert [r.target for r in result.rejections] == ["aten.full.default"]
    assert not result.coverage.unsupported, result.coverage_table()
    _run_against_eager(pte, model, inputs)
