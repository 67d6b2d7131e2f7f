"""End to end: models from the seed's target architectures, exported with ExecuTorch's
Vulkan partitioner restricted to our op table, run by `webgpu_pte_runner` (the
ExecuTorch runtime of the pip wheel + our VulkanBackend) against eager PyTorch.

Needs the `executorch` package and build/webgpu_pte_runner (CMake, WEBGPU_EXECUTORCH=ON).
A model whose operators have no spec on this branch yet is skipped, and the skip
names those operators (the coverage report's "missing" rows).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

pytest.importorskip("executorch")

from codegen.et.compare import eager_outputs  # noqa: E402
from codegen.et.coverage import pte_coverage  # noqa: E402
from codegen.et.errors import ExportError  # noqa: E402
from codegen.et.export import export  # noqa: E402
from codegen.paths import REPO_ROOT  # noqa: E402
from codegen.et.pte import PteError, run_pte  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "tests"))
import e2e_models  # noqa: E402

MODELS = ["cnn_stem", "davit_stem", "decoder", "detect_head", "attention_block",
          "cnn_stem_pool_bn", "hf_resnet", "hf_mobilenet_v2", "hf_convnext", "hf_vit",
          "hf_siglip", "hf_davit", "hf_llama", "hf_swin", "hf_beit", "hf_t5_encoder",
          "hf_bloom", "hf_levit", "hf_wav2vec2", "hf_whisper_encoder", "hf_bloom_kv",
          "hf_llama_kv", "hf_stablelm", "hf_phi3", "hf_clip_text"]


def _export(name, path):
    model, inputs = getattr(e2e_models, name)()
    return model, inputs, export(model, inputs, path)


@pytest.mark.parametrize("name", MODELS)
def test_model_fully_delegated_matches_eager(name, tmp_path):
    pte = tmp_path / f"{name}.pte"
    model, inputs, result = _export(name, pte)

    # Every compute op sits in a VulkanBackend delegate with a handler; the program
    # itself runs no CPU kernel (read back from the .pte).
    assert result.coverage.fully_delegated, result.coverage_table()
    on_disk = pte_coverage(pte)
    assert not on_disk.portable and not on_disk.missing, on_disk.table()
    assert on_disk.delegated == result.coverage.delegated

    outputs, latency = run_pte(pte, inputs, iters=3)
    with torch.no_grad():
        expected = model(*inputs)
    expected = [t for _, t in eager_outputs(expected)]  # as torch.export flattens it
    assert len(outputs) == len(expected)
    worst = 0.0
    for i, (got, want) in enumerate(zip(outputs, expected)):
        error, why = e2e_models.eager_mismatch(got, want)
        assert why is None, f"{name} output {i}: {why}"
        worst = max(worst, error)
    n_ops = sum(result.coverage.delegated.values())
    print(f"\n{name}: {n_ops} delegated op calls, max abs error {worst:.3g}, "
          f"median latency {latency.median_ms:.3f} ms on {latency.device}")


def test_pt2e_weight_only_4bit_linears_run_as_linear_qcs4w(tmp_path):
    """VulkanQuantizer's 4-bit weight-only PT2E flow: each linear becomes
    et_vk.linear_qcs4w over the packed weight (the lowering's own layout), delegated, and
    the .pte matches the quantized model run eagerly."""
    pte = tmp_path / "qcs4w.pte"
    model, inputs, result = _export("pt2e_qcs4w_mlp", pte)
    assert result.coverage.fully_delegated, result.coverage_table()
    assert result.coverage.delegated.get("et_vk.linear_qcs4w.default") == 2, \
        result.coverage_table()
    outputs, _ = run_pte(pte, inputs, iters=1)
    _check_close(outputs, model, inputs)


# Static int8 models (PT2E, codegen.et.quantize): every output within INT8_STEPS steps of
# its quantization scale of ExecuTorch's own CPU run of the same quantized program
# (docs/numerics.md says why they may differ at all; measured: 0 steps).
INT8_STEPS = 2
INT8_MODELS = {
    "int8_cnn": {"quantized_decomposed.quantize_per_tensor.default",
                 "quantized_decomposed.dequantize_per_tensor.default",
                 *(f"et_vk.q8ta_{op}.default" for op in (
                     "conv2d", "conv2d_dw", "conv2d_pw", "conv2d_transposed", "relu", "add",
                     "pixel_shuffle", "linear", "linear_gemv"))},
    "hf_resnet": {"et_vk.q8ta_conv2d.default", "et_vk.q8ta_add.default",
                  "et_vk.q8ta_linear_gemv.default"},
}


@pytest.mark.parametrize("name", INT8_MODELS)
def test_int8_model_fully_delegated_matches_executorch_cpu(name, tmp_path):
    from codegen.et.quantize import cpu_reference, output_scales, quantize_int8

    model, inputs = getattr(e2e_models, name)()
    qmodel = quantize_int8(model, inputs)
    pte = tmp_path / f"{name}_int8.pte"
    result = export(qmodel, inputs, pte)
    assert result.coverage.fully_delegated, result.coverage_table()
    missing = INT8_MODELS[name] - set(result.coverage.delegated)
    assert not missing, f"{name}: the lowering emitted no {sorted(missing)}"

    outputs, latency = run_pte(pte, inputs, iters=1)
    want = cpu_reference(qmodel, inputs)
    scales = output_scales(qmodel)
    assert len(outputs) == len(want) == len(scales)
    worst = 0.0
    for i, (got, w, scale) in enumerate(zip(outputs, want, scales)):
        assert got.shape == w.shape, f"{name} output {i}: {tuple(got.shape)}, {tuple(w.shape)}"
        steps = float((got.double() - w.double()).abs().max()) / scale
        assert steps <= INT8_STEPS, f"{name} output {i}: {steps:.2f} steps from ExecuTorch's " \
                                    f"CPU run (at most {INT8_STEPS})"
        worst = max(worst, steps)
    print(f"\n{name} int8: {sum(result.coverage.delegated.values())} delegated op calls, "
          f"{worst:.2f} steps from ExecuTorch's CPU run at worst, median latency "
          f"{latency.median_ms:.3f} ms on {latency.device}")


class WeightAsInput(torch.nn.Module):
    """A conv whose weight is a graph input, not a constant."""

    def forward(self, x, weight):
        return torch.nn.functional.conv2d(x, weight, padding=1)


def _check_close(outputs, model, inputs):
    with torch.no_grad():
        expected = model(*inputs)
    expected = [t for _, t in eager_outputs(expected)]  # as torch.export flattens it
    assert len(outputs) == len(expected)
    for i, (got, want) in enumerate(zip(outputs, expected)):
        _, why = e2e_models.eager_mismatch(got, want)
        assert why is None, f"output {i}: {why}"


def test_constant_weight_packs_run_once_at_load(tmp_path):
    """davit_stem's two convs have constant weights: each weight pack runs once, at load,
    however many executes follow, and the raw weights are then freed; with rerun_constants
    (the behaviour before) it runs on every execute, and the outputs are the same bits."""
    pte = tmp_path / "davit_stem.pte"
    model, inputs, _ = _export("davit_stem", pte)
    executes = 2 + 3  # warmup + iters
    outputs, ran = run_pte(pte, inputs, iters=3, warmup=2)
    _check_close(outputs, model, inputs)
    # each conv's GEMM runs on every execute, on the route its shape takes
    gemms = ("conv2d_gemm", "conv2d_stem_gemm", "conv2d_gemm128")
    convs = sum(ran.kernel_runs.get(k, 0) for k in gemms) // executes
    assert convs == 2, ran.kernel_runs
    assert ran.constant_dispatches == convs
    assert ran.kernel_runs["conv2d_pack_weights"] == convs, ran.kernel_runs
    # the raw weights the packs read are freed after load (16-byte units per buffer)
    weights = [p for p in model.parameters() if p.dim() == 4]
    assert len(weights) == convs
    assert ran.freed_constant_bytes == sum(-(-4 * w.numel() // 16) * 16 for w in weights)

    rerun_outputs, rerun = run_pte(pte, inputs, iters=3, warmup=2, rerun_constants=True)
    assert rerun.constant_dispatches == 0 and rerun.freed_constant_bytes == 0
    assert rerun.kernel_runs["conv2d_pack_weights"] == convs * executes, rerun.kernel_runs
    for got, want in zip(rerun_outputs, outputs):
        assert torch.equal(got, want)


def test_profile_times_every_dispatch_of_an_execute(tmp_path):
    """--profile (run_pte, opgen run) times each dispatch of an execute on the GPU: every
    kernel the executes ran, with its dispatches per execute; the weight packs that ran
    once at load are not in it. The outputs stay right."""
    pte = tmp_path / "davit_stem.pte"
    model, inputs, _ = _export("davit_stem", pte)
    executes = 1 + 2  # warmup + iters
    outputs, ran = run_pte(pte, inputs, iters=2, warmup=1, profile=True)
    _check_close(outputs, model, inputs)
    in_executes = {k: n for k, n in ran.kernel_runs.items() if k != "conv2d_pack_weights"}
    assert set(ran.kernel_times) == set(in_executes), (ran.kernel_times, ran.kernel_runs)
    for kernel, time in ran.kernel_times.items():
        assert time["dispatches"] * executes == in_executes[kernel], (kernel, time)
        assert time["gpu_ms"] > 0, (kernel, time)
    res = subprocess.run([sys.executable, "-m", "codegen", "run", str(pte), "--iters", "2",
                          "--profile"], capture_output=True, text=True, cwd=REPO_ROOT)
    assert res.returncode == 0, res.stderr
    assert "GPU time per execute" in res.stdout and "conv2d_" in res.stdout, res.stdout


class EmptyCache(torch.nn.Module):
    """A KV cache as transformers starts it: an empty [0] tensor (lifted as a constant)
    concatenated with this step's keys."""

    def forward(self, keys):
        return torch.cat([torch.tensor([]), keys], dim=-2) * 2


def test_empty_cache_constants_are_not_written(tmp_path):
    """ExecuTorch prunes the empty tensor from the cat, after its unused-parameter pass;
    the lifted constant left unread was written as a 0-byte constant, the program's only
    one, and the runtime refused the 0-byte constant segment at load ("ExecuTorch error
    35", hf_bloom_kv). The export drops it."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    keys = torch.randn(1, 2, 3, 4)
    result = export(EmptyCache(), (keys,), tmp_path / "empty_cache.pte")
    assert result.coverage.fully_delegated, result.coverage_table()
    program = deserialize_pte_binary(result.pte).program
    sizes = [t.val.sizes for t in program.execution_plan[0].values
             if type(t.val).__name__ == "Tensor" and t.val.data_buffer_idx > 0]
    assert sizes == [], sizes
    outputs, _ = run_pte(tmp_path / "empty_cache.pte", (keys,), iters=1)
    assert torch.equal(outputs[0], keys * 2)


def test_input_weight_packs_on_every_execute(tmp_path):
    model = WeightAsInput()
    inputs = (torch.randn(1, 8, 9, 7), torch.randn(12, 8, 3, 3))
    pte = tmp_path / "weight_input.pte"
    result = export(model, inputs, pte)
    assert result.vk_ops == [["aten.convolution.default"]]
    outputs, ran = run_pte(pte, inputs, iters=2, warmup=1)
    _check_close(outputs, model, inputs)
    assert ran.constant_dispatches == 0 and ran.freed_constant_bytes == 0
    assert ran.kernel_runs["conv2d_pack_weights"] == 3, ran.kernel_runs


def test_views_share_their_input_buffer_and_copy_nothing(tmp_path):
    """ExecuTorch's memory plan gives each view's output (view_copy, squeeze_copy) a buffer
    of its own; the loader plans the buffers again and puts a view's output in its input's
    buffer, so hf_vit's views run no copy on any execute: the only copies left are
    et_vk.prepack's, which run once at load. The outputs match eager, and are the same bits
    with the views copying (the runner's --copy-views)."""
    pte = tmp_path / "hf_vit.pte"
    model, inputs, result = _export("hf_vit", pte)
    delegated = result.coverage.delegated
    views = delegated["aten.view_copy.default"] + delegated["aten.squeeze_copy.dims"]
    assert views >= 30, result.coverage_table()
    outputs, ran = run_pte(pte, inputs, iters=2, warmup=1)
    _check_close(outputs, model, inputs)
    prepacks = delegated["et_vk.prepack.default"]
    assert ran.kernel_runs.get("copy_words", 0) == prepacks, ran.kernel_runs

    copied_outputs, copied = run_pte(pte, inputs, iters=2, warmup=1, copy_views=True)
    assert copied.kernel_runs["copy_words"] == prepacks + views * 3, copied.kernel_runs
    for got, want in zip(copied_outputs, outputs):
        assert torch.equal(got, want)


class WithLog10(torch.nn.Module):
    """relu (has a handler) then round (Vulkan takes it; our op table has no spec)."""

    def forward(self, x):
        return torch.log10(torch.relu(x) + 1.0)


UNSUPPORTED = "aten.log10.default"


@pytest.fixture(scope="module")
def unsupported_pte(tmp_path_factory):
    from codegen.et.coverage import supported_targets

    if UNSUPPORTED in supported_targets():
        pytest.fail(f"{UNSUPPORTED} gained a spec: pick another unsupported op for this test")
    path = tmp_path_factory.mktemp("unsupported") / "log10.pte"
    result = export(WithLog10(), (torch.randn(2, 8),), path, allow_unsupported=True)
    assert result.coverage.missing == {UNSUPPORTED: 1}, result.coverage_table()
    return path


def test_strict_export_refuses_an_unsupported_op():
    with pytest.raises(ExportError, match=UNSUPPORTED.replace(".", r"\.")):
        export(WithLog10(), (torch.randn(2, 8),))


def test_unsupported_op_fails_at_load_naming_it(unsupported_pte):
    with pytest.raises(PteError, match=rf"no WebGPU handler for operator {UNSUPPORTED}"):
        run_pte(unsupported_pte, [torch.randn(2, 8)])


def test_coverage_report_lists_the_missing_op(unsupported_pte):
    res = subprocess.run([sys.executable, "-m", "codegen", "coverage", str(unsupported_pte)],
                         capture_output=True, text=True, cwd=REPO_ROOT)
    assert res.returncode == 1, res.stderr
    rows = {line.split()[0]: line for line in res.stdout.splitlines() if line.strip()}
    assert "missing: no WebGPU handler" in rows[UNSUPPORTED]
    assert "delegated" in rows["aten.relu.default"]


def test_opgen_export_command(tmp_path):
    out = tmp_path / "attention.pte"
    res = subprocess.run([sys.executable, "-m", "codegen", "export",
                          "tests/e2e_models.py:attention_block", "-o", str(out)],
                         capture_output=True, text=True, cwd=REPO_ROOT)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "et_vk.sdpa.default" in res.stdout and out.stat().st_size > 0
    assert pte_coverage(out).fully_delegated
