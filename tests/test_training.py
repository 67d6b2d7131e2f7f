"""The on-device training ops against what they stand for in torch: et_vk.adamw_step
against torch.optim.AdamW over several steps, fused_ce against F.cross_entropy and its
autograd gradient, linear_dW and linear_q4gsw_backward against autograd through
F.linear, q4gsw_requant against re-quantizing what linear_q4gsw dequantizes. Each runs
on the wgpu harness and, when it is built, the native runner.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

pytest.importorskip("executorch")

from codegen.executors import harness, native  # noqa: E402
from codegen.paths import REPO_ROOT  # noqa: E402

EXECUTORS = [pytest.param(harness.EXECUTOR, id="harness"),
             pytest.param(native.EXECUTOR, id="native", marks=pytest.mark.skipif(
                 not (REPO_ROOT / "build" / "webgpu_op_runner").exists(),
                 reason="build/webgpu_op_runner is not built"))]


def _g(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


@pytest.mark.parametrize("executor", EXECUTORS)
def test_adamw_step_is_torch_adamw(executor):
    """Five steps of torch.optim.AdamW and five adamw_step calls with the same gradients
    and the bias corrections of each step: the same parameters and moments."""
    lr, betas, eps, wd = 1e-2, (0.9, 0.999), 1e-8, 0.05
    param = torch.randn(7, 13, generator=_g(1))
    reference = param.clone().requires_grad_(True)
    optimizer = torch.optim.AdamW([reference], lr=lr, betas=betas, eps=eps, weight_decay=wd)
    m, v = torch.zeros_like(param), torch.zeros_like(param)
    for t in range(1, 6):
        grad = torch.randn(param.shape, generator=_g(10 + t))
        reference.grad = grad.clone()
        optimizer.step()
        outs = executor.call("et_vk.adamw_step.default", param, m, v, grad, lr, *betas, eps,
                             wd, 1 - betas[0] ** t, 1 - betas[1] ** t)
        state = optimizer.state[reference]
        for got, want in ((param, reference.detach()), (m, state["exp_avg"]),
                          (v, state["exp_avg_sq"])):
            torch.testing.assert_close(got, want, atol=1e-6, rtol=1e-5)
        for got, mutated in zip(outs, (param, m, v)):  # the outputs are the new values too
            assert torch.equal(got, mutated)


@pytest.mark.parametrize("executor", EXECUTORS)
def test_fused_ce_is_cross_entropy_and_its_gradient(executor):
    logits = torch.randn(9, 23, generator=_g(2)) * 3
    labels = torch.randint(0, 23, (9,), generator=_g(3))
    labels[[2, 5]] = -100  # ignored rows
    n_valid = float((labels >= 0).sum())
    loss, dlogits = executor.call("et_vk.fused_ce.default", logits, labels, n_valid)
    x = logits.clone().requires_grad_(True)
    want = F.cross_entropy(x, labels, ignore_index=-100)
    want.backward()
    torch.testing.assert_close(loss, want.detach(), atol=1e-6, rtol=1e-5)
    torch.testing.assert_close(dlogits, x.grad, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("executor", EXECUTORS)
def test_linear_dw_is_the_weight_gradient(executor):
    x = torch.randn(2, 11, 24, generator=_g(4))
    weight = torch.randn(10, 24, generator=_g(5), requires_grad=True)
    d_out = torch.randn(2, 11, 10, generator=_g(6))
    F.linear(x, weight).backward(d_out)
    got = executor.call("et_vk.linear_dW.default", d_out, x)
    torch.testing.assert_close(got, weight.grad, atol=1e-5, rtol=1e-5)


def _q4_weights(n: int, k: int, group: int, seed: int):
    """Packed 4-bit weights (low nibble first, + 8), their [K / group, N] scales and the
    float weights they stand for."""
    q = torch.randint(-8, 8, (n, k), generator=_g(seed))
    packed = ((q[:, 0::2] + 8) | ((q[:, 1::2] + 8) << 4)).to(torch.uint8)
    scales = torch.rand(k // group, n, generator=_g(seed + 1)) * 0.02 + 0.002
    dense = q.float() * scales.t().repeat_interleave(group, dim=1)
    return packed, scales, dense


@pytest.mark.parametrize("executor", EXECUTORS)
def test_linear_q4gsw_backward_is_the_input_gradient(executor):
    packed, scales, dense = _q4_weights(12, 32, 8, 7)
    x = torch.randn(3, 5, 32, generator=_g(9), requires_grad=True)
    d_out = torch.randn(3, 5, 12, generator=_g(10))
    F.linear(x, dense).backward(d_out)
    got = executor.call("et_vk.linear_q4gsw_backward.default", d_out, packed, scales, 8)
    torch.testing.assert_close(got, x.grad, atol=1e-5, rtol=1e-5)
    # and ExecuTorch's reference, in float32 where it works
    upstream = torch.ops.et_vk.linear_q4gsw_backward(d_out, packed, scales, 8)
    torch.testing.assert_close(got, upstream, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("executor", EXECUTORS)
def test_q4gsw_requant_inverts_the_dequantization(executor):
    """Latent weights a small step away from their 4-bit grid points re-quantize to those
    points' codes: the packed weights linear_q4gsw was built from."""
    packed, scales, dense = _q4_weights(9, 24, 8, 11)
    noise = (torch.rand(dense.shape, generator=_g(12)) - 0.5) * 0.8  # < half a step
    latent = dense + noise * scales.t().repeat_interleave(8, dim=1)
    got = executor.call("et_vk.q4gsw_requant.default", latent, scales, 8)
    assert torch.equal(got, packed)


@pytest.mark.parametrize("executor", EXECUTORS)
def test_fused_ce_label_past_the_classes_shows_as_nan(executor):
    """torch rejects such a label; a kernel cannot, so its row and the loss are NaN."""
    logits = torch.randn(4, 5, generator=_g(13))
    labels = torch.tensor([1, 5, -100, 0])
    loss, dlogits = executor.call("et_vk.fused_ce.default", logits, labels, 3.0)
    assert torch.isnan(loss)
    assert torch.isnan(dlogits[1]).all() and not torch.isnan(dlogits[[0, 2, 3]]).any()
    assert torch.equal(dlogits[2], torch.zeros(5))
