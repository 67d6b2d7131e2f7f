"""`opgen run --reference` judges a .pte's outputs as the end-to-end tests do
(codegen/et/compare.py): the factory's eager output flattened exactly as torch.export
flattens it (any pytree: a Hugging Face ModelOutput, tuples, dicts), each output judged
relative to its scale, the one that fails named together with the criterion.

The command runs in-process here with the runner replaced (`run_pte` gives eager's
outputs, perturbed), so the check needs no native build; test_e2e runs real .pte files.
"""

from __future__ import annotations

import argparse
import sys

import pytest
import torch

from codegen.et import pte
from codegen.et.compare import CRITERION, eager_outputs, judge
from codegen.et.pte import Latency
from codegen.paths import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tests"))
import e2e_models  # noqa: E402


class _Mixed(torch.nn.Module):
    def forward(self, x):
        return x + 1, None, {"b": x * 2, "a": x - 1}


class _ModelOutput(torch.nn.Module):
    def forward(self, x):
        from transformers.modeling_outputs import BaseModelOutputWithPoolingAndNoAttention

        return BaseModelOutputWithPoolingAndNoAttention(last_hidden_state=x + 1,
                                                        pooler_output=x.sum(0))


@pytest.mark.parametrize("model,names", [
    (_Mixed(), ["[0]", "[1]", "[2]['b']", "[2]['a']"]),
    (_ModelOutput(), [".last_hidden_state", ".pooler_output"]),
    (torch.nn.ReLU(), ["output"]),
], ids=["tuple_none_dict", "model_output", "tensor"])
def test_eager_outputs_are_flattened_as_torch_export_flattens_them(model, names):
    x = torch.randn(3, 2)
    exported = torch.export.export(model, (x,))
    flat = eager_outputs(model(x))
    assert [n for n, _ in flat] == names
    assert len(flat) == len(exported.graph_signature.user_outputs)
    for (_, got), want in zip(flat, torch.utils._pytree.tree_leaves(exported.module()(x))):
        assert (got is None and want is None) or torch.equal(got, want)


def test_judged_relative_to_the_output_scale():
    """A depth map reaching 350 off by 2.9e-6 of its scale matches (an absolute 1e-3 did
    not: its max abs error is 1.0e-3 here); one off by 1e-3 of its scale does not, and
    the verdict names it."""
    torch.manual_seed(0)
    depth = 100 + 250 * torch.rand(1, 32, 32)
    depth.view(-1)[0] = 350.0
    close = depth + 350 * 2.9e-6
    assert (close - depth).abs().max().item() > 1e-3
    expected = [(".predicted_depth", depth), (".logits", depth / 100)]
    verdict = judge([close, depth / 100], expected)
    assert verdict.failure is None, verdict.failure
    verdict = judge([close, depth / 100 * (1 + 1e-3)], expected)
    assert verdict.failure.startswith("output 1 (.logits) does not match eager: max abs error")
    assert "of the output's scale 3.5 (at most 0.0001)" in verdict.failure


def test_output_count_mismatch_is_named():
    verdict = judge([torch.ones(2)], [(".a", torch.ones(2)), (".b", torch.ones(2))])
    assert verdict.failure == ("the .pte gives 1 output(s), the reference's forward 2 "
                               "(flattened as torch.export flattens it: .a, .b)")


def _run(monkeypatch, tmp_path, capsys, perturb):
    """`opgen run x.pte --reference tests/e2e_models.py:hf_resnet_as_is` with the runner
    giving eager's outputs through `perturb`."""
    model, inputs = e2e_models.hf_resnet_as_is()
    with torch.no_grad():
        eager = [t for _, t in eager_outputs(model(*inputs))]

    def fake_run_pte(path, given, **kwargs):
        return [perturb(i, t.clone()) for i, t in enumerate(eager)], Latency(1, 1, 1, 1, "fake")

    monkeypatch.setattr(pte, "run_pte", fake_run_pte)
    # the file is a bare header: its coverage says a float32 program
    monkeypatch.setattr(pte, "pte_coverage", lambda path: argparse.Namespace(float16=False))
    path = tmp_path / "model.pte"
    path.write_bytes(b"\0\0\0\0ET12" + bytes(56))
    args = argparse.Namespace(pte=str(path), iters=1, profile=False,
                              reference="tests/e2e_models.py:hf_resnet_as_is")
    monkeypatch.chdir(REPO_ROOT)
    status = pte.cmd_run(args)
    return status, capsys.readouterr().out


def test_run_reference_takes_a_model_output(monkeypatch, tmp_path, capsys):
    """The factory returns a Hugging Face model as it is (its forward gives a ModelOutput):
    each output is named and judged, no traceback."""
    status, out = _run(monkeypatch, tmp_path, capsys, lambda i, t: t)
    assert status == 0, out
    assert "output 0 (.last_hidden_state): [1, 16, 4, 4]" in out
    assert "output 1 (.pooler_output): [1, 16, 1, 1]" in out
    assert f"matches eager ({CRITERION})" in out


def test_run_reference_names_the_output_and_the_criterion(monkeypatch, tmp_path, capsys):
    status, out = _run(monkeypatch, tmp_path, capsys,
                       lambda i, t: t * (1 + 1e-3) if i == 1 else t)
    assert status == 1, out
    assert "FAILED: output 1 (.pooler_output) does not match eager: max abs error " in out
    assert f"(criterion: {CRITERION})" in out
