"""What the gathers do with indices torch would reject (a GPU kernel cannot raise):
embedding writes a NaN row for an index outside 0..V-1; index.Tensor wraps negative
indices once and clamps the rest into the dim (see the specs' docstrings)."""

import pytest
import torch

from codegen.executors import harness, native

EXECUTORS = {"harness": harness.EXECUTOR, "native": native.EXECUTOR}


@pytest.mark.parametrize("executor", EXECUTORS)
@pytest.mark.parametrize("dim", [8, 5])  # the vec4 and the word route
def test_embedding_out_of_range_rows_are_nan(executor, dim):
    weight = torch.randn(6, dim)
    indices = torch.tensor([[0, 6, -1], [5, 2**31 - 1, -(2**31)]])
    got = EXECUTORS[executor].call("aten.embedding.default", weight, indices)
    bad = torch.tensor([[False, True, True], [False, True, True]])
    assert got.shape == (2, 3, dim)
    assert torch.isnan(got[bad]).all()
    assert torch.equal(got[~bad], weight[indices[~bad]])


@pytest.mark.parametrize("executor", EXECUTORS)
def test_index_tensor_out_of_range_is_clamped(executor):
    x = torch.randn(5, 3)
    got = EXECUTORS[executor].call("aten.index.Tensor", x, [torch.tensor([7, -9, -2, 4])])
    assert torch.equal(got, x[torch.tensor([4, 0, 3, 4])])
