"""Spec guards decide delegation at export (codegen/et/guards.py).

The model (tests/e2e_models.py:pool_ceil_mode) pools one input twice with
aten.max_pool2d_with_indices: floor mode, which the max_pool2d spec serves, and
ceil_mode=True, which its guard rejects. Export must delegate the first, leave the
second on ExecuTorch's CPU kernels, say so in the coverage (from the lowering and from
the .pte), and the .pte must match eager; with strict guards the export fails naming
the node and the guard. Without the check, the same .pte fails at load with the very
message the check predicts.

Needs the `executorch` package; the .pte runs need build/webgpu_pte_runner.
"""

from __future__ import annotations

import contextlib
import logging
import subprocess
import sys

import pytest
import torch

pytest.importorskip("executorch")

from codegen.et import export as export_module  # noqa: E402
from codegen.et.coverage import pte_coverage  # noqa: E402
from codegen.et.errors import ExportError  # noqa: E402
from codegen.et.export import export  # noqa: E402
from codegen.et.guards import meta_tensor, spec_rejection  # noqa: E402
from codegen.et.pte import PteError, run_pte  # noqa: E402
from codegen.paths import REPO_ROOT  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "tests"))
import e2e_models  # noqa: E402

POOL = "aten.max_pool2d_with_indices.default"
GUARD = ("WebGPU max_pool2d_with_indices: ceil_mode is not supported "
         "(got true, expected false)")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    model, inputs = e2e_models.pool_ceil_mode()
    path = tmp_path_factory.mktemp("guards") / "pool_ceil_mode.pte"
    return model, inputs, path, export(model, inputs, path)


def test_rejected_node_stays_on_cpu_and_accepted_one_is_delegated(exported):
    _, _, _, result = exported
    coverage = result.coverage
    assert coverage.delegated == {POOL: 1}, result.coverage_table()
    assert coverage.guarded == {(POOL, GUARD): 1}, result.coverage_table()
    assert not coverage.missing and not coverage.portable, result.coverage_table()
    assert not coverage.fully_delegated
    assert result.vk_ops == [[POOL]]
    [rejection] = result.rejections
    assert (rejection.target, rejection.argument, rejection.message) == (POOL, "ceil_mode", GUARD)
    assert f"delegated: no (guard: {GUARD})" in result.coverage_table()


def test_pte_coverage_names_the_guard(exported):
    _, _, path, result = exported
    on_disk = pte_coverage(path)
    assert on_disk.delegated == result.coverage.delegated
    assert on_disk.guarded == result.coverage.guarded, on_disk.table()
    assert not on_disk.portable and not on_disk.missing, on_disk.table()


def test_pte_matches_eager(exported):
    model, inputs, path, _ = exported
    outputs, _ = run_pte(path, inputs, iters=1)
    with torch.no_grad():
        expected = model(*inputs)
    assert [tuple(o.shape) for o in outputs] == [(1, 2, 2, 2), (1, 2, 3, 3)]
    for got, want in zip(outputs, expected):
        torch.testing.assert_close(got, want, atol=0, rtol=0)  # max is exact


def test_strict_guards_fail_the_export_naming_node_and_guard(exported):
    _, _, _, result = exported
    node = result.rejections[0].node
    model, inputs = e2e_models.pool_ceil_mode()
    with pytest.raises(ExportError) as raised:
        export(model, inputs, strict_guards=True)
    message = str(raised.value)
    assert f"node {node} ({POOL}), argument ceil_mode: {GUARD}" in message, message


def test_without_the_check_the_pte_fails_at_load_with_the_same_message(tmp_path, monkeypatch):
    """The check predicts the runtime: the delegate itself rejects the call it kept out.
    Without the partitioner-time check the call is delegated, and the read-back of the
    VK00 graph (what export and coverage check last) refuses it with the same message."""
    monkeypatch.setattr(export_module, "checking_guards",
                        lambda checker: contextlib.nullcontext(checker))
    model, inputs = e2e_models.pool_ceil_mode()
    path = tmp_path / "unchecked.pte"
    result = export(model, inputs, path, allow_unsupported=True)
    assert result.coverage.delegated == {POOL: 1} and not result.coverage.guarded
    assert result.coverage.rejected == {(POOL, GUARD): 1}, result.coverage_table()
    assert pte_coverage(path).rejected == {(POOL, GUARD): 1}
    with pytest.raises(PteError, match=GUARD.replace("(", r"\(").replace(")", r"\)")):
        run_pte(path, inputs, iters=1)


# --- nodes the Vulkan lowering fuses after partitioning (checked on the VK00 graph) --------
ROPE = "et_vk.apply_rotary_emb_hf.default"
ODD = ("WebGPU apply_rotary_emb_hf: freqs_cos covers an odd rotary dim (got 7, expected an "
       "even rotary dim)")


@pytest.fixture(scope="module")
def odd_rotary(tmp_path_factory):
    """A rotary embedding the lowering fuses into et_vk.apply_rotary_emb_hf, exported with
    allow_unsupported (export alone refuses it)."""
    model, inputs = e2e_models.odd_rotary_dim()
    path = tmp_path_factory.mktemp("fused") / "odd_rotary.pte"
    return inputs, path, export(model, inputs, path, allow_unsupported=True)


def test_export_refuses_a_fused_node_its_spec_rejects():
    """The partitioner saw slices, muls and cats; the preprocessing fused them into one
    call the spec rejects. Export fails naming the node, the argument and the guard."""
    model, inputs = e2e_models.odd_rotary_dim()
    with pytest.raises(ExportError) as raised:
        export(model, inputs)
    message = str(raised.value)
    assert f"{ROPE}      1  missing: delegated, fails at load (guard: {ODD})" in message, message
    assert f"fails at load: node 2 ({ROPE}), argument freqs_cos: {ODD}" in message, message


def test_coverage_refuses_a_node_that_would_fail_at_load(odd_rotary):
    """Coverage of the lowering and of the .pte report the fused node as missing (it
    fails at load), never as delegated; the runner's load fails with the same message."""
    inputs, path, result = odd_rotary
    for coverage in (result.coverage, pte_coverage(path)):
        assert coverage.rejected == {(ROPE, ODD): 1}, coverage.table()
        assert ROPE not in coverage.delegated
        assert coverage.unsupported and not coverage.fully_delegated
        assert "0 missing" not in coverage.table()
    res = subprocess.run([sys.executable, "-m", "codegen", "coverage", str(path)],
                         capture_output=True, text=True, cwd=REPO_ROOT)
    assert res.returncode == 1, res.stderr[-2000:]
    assert f"missing: delegated, fails at load (guard: {ODD})" in res.stdout, res.stdout
    with pytest.raises(PteError) as raised:
        run_pte(path, inputs, iters=1)
    assert f"node 2 ({ROPE}): {ODD}" in str(raised.value)


def test_partial_rotary_models_fuse_and_load():
    """transformers' partial-rotary layout ([B, H, S, D], [1, S, R] tables) fused into
    et_vk.apply_rotary_emb_hf is served: StableLM exports fully delegated with the fused
    node checked on its serialized values (the end-to-end run is in tests/test_e2e.py)."""
    model, inputs = e2e_models.hf_stablelm()
    result = export(model, inputs)
    assert result.coverage.fully_delegated, result.coverage_table()
    assert result.coverage.delegated[ROPE] == 2, result.coverage_table()


def test_a_failing_lowering_names_the_nodes_left_outside_the_delegate(exported, monkeypatch):
    """ExecuTorch's Vulkan preprocessing can fail on a graph split into several partitions
    (its FuseBatchNormPass did on BEiT's integer sum): the error names what split it."""
    import executorch.exir as exir

    real = exir.to_edge_transform_and_lower

    def lowering_that_fails(*args, **kwargs):
        real(*args, **kwargs)  # partitions (the guard rejects a node), then breaks
        logging.info("[Vulkan Partitioner] Due to [no operator implementation], skipping x")
        raise RuntimeError("An error occurred when running the 'FuseBatchNormPass' pass")

    monkeypatch.setattr(exir, "to_edge_transform_and_lower", lowering_that_fails)
    root = logging.getLogger("")
    handlers = [(h, h.level) for h in root.handlers]
    _, _, _, result = exported
    model, inputs = e2e_models.pool_ceil_mode()
    with pytest.raises(ExportError) as raised:
        export(model, inputs)
    message = str(raised.value)
    assert "ExecuTorch's lowering failed (RuntimeError: An error occurred when running the " \
           "'FuseBatchNormPass' pass) with 2 node(s) left outside the delegate" in message, message
    assert f"node {result.rejections[0].node} ({POOL}), argument ceil_mode: {GUARD}" in message
    assert "  [no operator implementation], skipping x" in message
    # the capture is undone: handlers as they were, the root at the quiet level lower() sets
    assert [(h, h.level) for h in root.handlers] == handlers
    assert root.level == logging.WARNING


def test_coverage_command_names_the_guard_and_exits_1():
    res = subprocess.run([sys.executable, "-m", "codegen", "coverage",
                          "tests/e2e_models.py:pool_ceil_mode"],
                         capture_output=True, text=True, cwd=REPO_ROOT)
    assert res.returncode == 1, res.stderr[-2000:]
    rows = [line for line in res.stdout.splitlines() if line.startswith(POOL)]
    assert sorted(r.split(None, 2)[2] for r in rows) == [
        "delegated", f"delegated: no (guard: {GUARD})"], res.stdout


# --- the check itself, on graph values built from shapes alone ------------------------------
def _pool_call(ceil_mode: bool):
    x = meta_tensor((1, 2, 5, 5), torch.float32)
    side = 3 if ceil_mode else 2
    outs = [meta_tensor((1, 2, side, side), torch.float32),
            meta_tensor((1, 2, side, side), torch.int64)]
    return [x, [2, 2], [2, 2], [0, 0], [1, 1], ceil_mode], outs


def test_spec_rejection_runs_the_guards():
    assert spec_rejection(POOL, *_pool_call(False)) is None
    assert spec_rejection(POOL, *_pool_call(True)) == ("ceil_mode", GUARD)


def test_spec_rejection_runs_the_tensor_checks():
    """index_tensor takes index tensors of rank 0..4 (int64 in torch, int32 on the GPU)."""
    x = meta_tensor((4, 5), torch.float32)
    square = [meta_tensor((2, 2), torch.int64)]
    rank5 = [meta_tensor((1, 1, 1, 1, 2), torch.int64)]
    assert spec_rejection("aten.index.Tensor", [x, square],
                          [meta_tensor((2, 2, 5), torch.float32)]) is None
    assert spec_rejection("aten.index.Tensor", [x, rank5],
                          [meta_tensor((1, 1, 1, 1, 2, 5), torch.float32)]) == (
        "indices", "WebGPU index_tensor: indices has the wrong rank (got 5, expected 0..4)")


def test_spec_rejection_checks_constants_the_graph_drops():
    """A dtype the copy cannot produce is rejected at export (the graph carries Null)."""
    x = meta_tensor((2, 3), torch.float32)
    out = meta_tensor((2, 3), torch.uint8)
    found = spec_rejection("dim_order_ops._to_dim_order_copy.default",
                           [x, torch.uint8, None, None, None, False, None], [out])
    assert found is not None and found[0] == "dtype", found


def test_targets_without_a_spec_are_left_to_the_partitioner():
    assert spec_rejection("aten.tanh.default", [meta_tensor((2,), torch.float32)],
                          [meta_tensor((2,), torch.float32)]) is None
