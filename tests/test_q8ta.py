"""The static int8 family's goldens (opgen_ref, codegen/graph/references.py) against
ExecuTorch's own references (backends/vulkan/custom_ops_lib.py) where those are right, and
against the unfused float graph where they are not.

ExecuTorch's references of the q8ta ops serve export (shapes), not numerics, and two of
them disagree with the partitioner's own packing (patterns/quantized_linear.py and
quantized_convolution.py): q8ta_linear(_gemv) indexes the per-channel scales with the
padded channel count (fails unless N % 4 == 0), and q8ta_conv2d / _transposed read the
packed weight rows in (ic, kh, kw) order while the pattern packs them in (kh, kw, ic)
order (the same thing only for 1x1 kernels or one input channel per group).
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

pytest.importorskip("executorch")

from codegen.executors.call import catalog, torch_op  # noqa: E402
from codegen.executors.cases import all_case_runs  # noqa: E402

GOLDEN_OPS = ("q8ta_linear", "q8ta_linear_gemv", "q8ta_conv2d", "q8ta_conv2d_pw",
              "q8ta_conv2d_dw", "q8ta_conv2d_transposed")


def _upstream_right(name: str, args: tuple) -> bool:
    """Whether ExecuTorch's reference computes this call as the partitioner packs it."""
    if name.startswith("q8ta_linear"):
        return args[3].shape[0] == args[5].shape[0]  # weights rows == padded scales
    if name in ("q8ta_conv2d", "q8ta_conv2d_transposed"):
        kernel, groups = args[9], args[-2]
        return kernel == [1, 1] or args[0].shape[1] == groups
    return True


def _runs(names) -> list:
    return [r for r in all_case_runs(catalog()) if r.op.op.name in names and not r.case.raises]


def _close(got, want, what: str) -> None:
    """int8 results one step apart at most, on at most 1% of elements (one side computes
    in float32, the other in float64)."""
    diff = (got.to(torch.int64) - want.to(torch.int64)).abs()
    assert int(diff.max()) <= 1, f"{what}: off by {int(diff.max())}"
    assert int((diff != 0).sum()) <= max(1, diff.numel() // 100), f"{what}: {diff}"


@pytest.mark.parametrize("name", GOLDEN_OPS)
def test_golden_is_executorchs_reference_where_that_is_right(name):
    compared = 0
    for run in _runs((name,)):
        args = run.args()
        if _upstream_right(name, args):
            _close(torch_op(run.op.op.golden)(*args), torch_op(run.target)(*args), run.id)
            compared += 1
    assert compared >= 1, f"{name}: no case compared"


def test_executorchs_reference_is_wrong_where_the_goldens_stand_in():
    """If ExecuTorch's references learn the padded channels and the packing order, the
    goldens can go: until then each such case fails there or computes something else."""
    wrong = 0
    for run in _runs(GOLDEN_OPS):
        args = run.args()
        if _upstream_right(run.op.op.name, args):
            continue
        wrong += 1
        try:
            theirs = torch_op(run.target)(*args)
        except RuntimeError:
            continue
        mine = torch_op(run.op.op.golden)(*args)
        assert (theirs.to(torch.int64) - mine.to(torch.int64)).abs().max() > 8, run.id
    assert wrong >= 4


def _quantize(x, scale, zero_point, relu):
    if relu:
        x = torch.relu(x)
    return torch.clamp(torch.round(x / scale) + zero_point, -128, 127).to(torch.int8)


@pytest.mark.parametrize("transposed,groups", [(False, 1), (False, 2), (True, 1), (True, 2)])
def test_conv_golden_is_the_unfused_graph_on_the_partitioners_packing(transposed, groups):
    """Weights of a conv as PT2E leaves them ([OC, ICpg, KH, KW]; transposed [IC, OCpg,
    KH, KW], quantized along OCpg), packed as patterns/quantized_convolution.py packs them
    (rows in (kh, kw, ic) order, padded to 4), give the golden the result of dequantize ->
    conv -> quantize on the unpacked weights."""
    g = torch.Generator().manual_seed(7)
    ic, oc, kh, kw = 6, 8, 3, 2
    icpg, ocpg = ic // groups, oc // groups
    x = torch.randint(-128, 128, (2, ic, 7, 6), generator=g, dtype=torch.int8)
    shape = (ic, ocpg, kh, kw) if transposed else (oc, icpg, kh, kw)
    w = torch.randint(-127, 128, shape, generator=g, dtype=torch.int8)
    n_scales = ocpg if transposed else oc
    scales = torch.rand(n_scales, generator=g, dtype=torch.float64) * 0.01 + 0.002
    bias = torch.randn(oc, generator=g, dtype=torch.float64)
    xs, xzp, ys, yzp = 0.03, -4, 0.08, 9
    xf = (x.double() - xzp) * xs
    if transposed:
        wf = w.double() * scales.view(1, ocpg, 1, 1)
        want = F.conv_transpose2d(xf, wf, bias, 2, 1, 1, groups)
        packed = (w.reshape(groups, icpg, ocpg, kh, kw).permute(0, 2, 3, 4, 1)
                  .reshape(oc, kh * kw * icpg))
    else:
        wf = w.double() * scales.view(oc, 1, 1, 1)
        want = F.conv2d(xf, wf, bias, 2, 1, 1, groups)
        packed = w.permute(0, 2, 3, 1).reshape(oc, kh * kw * icpg)
    packed = F.pad(packed, (0, -packed.shape[1] % 4))
    args = (x, xs, xzp, packed, torch.zeros(oc, dtype=torch.int32), scales, ys, yzp, bias,
            [kh, kw], [2, 2], [1, 1]) + (([1, 1],) if transposed else ()) + (
            [1, 1], groups, "relu")
    name = "q8ta_conv2d_transposed" if transposed else "q8ta_conv2d"
    got = getattr(torch.ops.opgen_ref, name)(*args)
    _close(got, _quantize(want, ys, yzp, True), name)
