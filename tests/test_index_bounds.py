"""What the gathers do with indices torch would reject (a GPU kernel cannot raise):
embedding, index_select and gather write NaN for an index outside the indexed dim; index.Tensor
wraps negative indices once and clamps the rest into the dim (see the specs' docstrings)."""

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


@pytest.mark.parametrize("executor", EXECUTORS)
@pytest.mark.parametrize("inner", [4, 3])  # the vec4 and the word route
def test_index_select_out_of_range_is_nan(executor, inner):
    x = torch.randn(2, 5, inner)
    index = torch.tensor([4, 5, -1, 0, 2**31 - 1, -(2**31)])
    got = EXECUTORS[executor].call("aten.index_select.default", x, 1, index)
    bad = torch.tensor([False, True, True, False, True, True])
    assert got.shape == (2, 6, inner)
    assert torch.isnan(got[:, bad]).all()
    assert torch.equal(got[:, ~bad], x[:, index[~bad]])


@pytest.mark.parametrize("executor", EXECUTORS)
def test_index_select_int32_out_of_range_is_the_nan_word(executor):
    x = torch.randint(-50, 50, (4, 3), dtype=torch.int32)
    got = EXECUTORS[executor].call("aten.index_select.default", x, 0, torch.tensor([3, 4, -1]))
    assert torch.equal(got[0], x[3])
    assert (got[1:] == 0x7fc00000).all()


@pytest.mark.parametrize("executor", EXECUTORS)
def test_gather_out_of_range_is_nan(executor):
    x = torch.randn(3, 5)
    index = torch.tensor([[4, 5, -1], [0, 2**31 - 1, -(2**31)], [2, 2, 9]])
    got = EXECUTORS[executor].call("aten.gather.default", x, 1, index)
    bad = (index < 0) | (index >= 5)
    assert torch.isnan(got[bad]).all()
    assert torch.equal(got[~bad], torch.gather(x, 1, index.clamp(0, 4))[~bad])
    ints = torch.randint(-50, 50, (4, 3), dtype=torch.int32)
    got = EXECUTORS[executor].call("aten.gather.default", ints, 0, torch.tensor([[3, 4, -1]]))
    assert got[0, 0] == ints[3, 0] and (got[0, 1:] == 0x7fc00000).all()
