"""index.Tensor: advanced indexing self[..., i0, i1, ...] with 1-D int index tensors.

`indices` is a `Tensor?[]`: None entries keep a dim whole; the index tensors (int64 in
torch, int32 on the GPU) must be 1-D, of one length N, and sit on adjacent dims
[first, last]. Then out = self.dims[:first] + [N] + self.dims[last + 1:] and
    out[o, j, r] = self[o, indices[first][j], ..., indices[last][j], r].
(Upstream ExecuTorch's Vulkan op supports one such index tensor; this serves up to four.)
Negative indices count from the end; out-of-range ones are clamped (torch raises; a GPU
kernel cannot), so callers must pass valid indices.
"""

from codegen.spec import (Bind, Case, Dispatch, Elementwise, Guard, Kernel, Op, Output, Param,
                          Route, Tensor, TensorList, I32, u32)
from codegen.spec.inputs import randint, randn, tensor

INDEX = Kernel("index_tensor")

P = [f"(len(indices) > {k} and indices[{k}].present)" for k in range(4)]

OPS = [Op(
    name="index_tensor",
    targets=["aten.index.Tensor"],
    args=[Tensor("self", rank=(1, 4)),
          TensorList("indices", dtypes=(I32,), rank=1, optional_items=True, max_items=4),
          Output("out", rank=(1, 4))],
    let={
        "p0": P[0], "p1": P[1], "p2": P[2], "p3": P[3],
        "count": "(1 if p0 else 0) + (1 if p1 else 0) + (1 if p2 else 0) + (1 if p3 else 0)",
        "first": "0 if p0 else 1 if p1 else 2 if p2 else 3 if p3 else 0",
        "last": "3 if p3 else 2 if p2 else 1 if p1 else 0",
        "N": "indices[first].dims[0] if count > 0 else 0",
        "lengths": "[indices[0].dims[0] if p0 else -1, indices[1].dims[0] if p1 else -1, "
                   "indices[2].dims[0] if p2 else -1, indices[3].dims[0] if p3 else -1]",
    },
    guards=[
        Guard("count > 0", "indices", "holds no index tensor", got="len(indices)",
              expected="at least one non-None entry"),
        Guard("len(indices) <= self.rank", "indices", "has more entries than self has dims",
              got="len(indices)", expected="at most {self.rank}"),
        Guard("count == last - first + 1", "indices",
              "holds index tensors on non-adjacent dims (only adjacent ones are supported)",
              got="lengths", expected="adjacent non-None entries"),
        Guard("(not p0 or lengths[0] == N) and (not p1 or lengths[1] == N) and "
              "(not p2 or lengths[2] == N) and (not p3 or lengths[3] == N)", "indices",
              "holds index tensors of different lengths", got="lengths",
              expected="one length (None entries show as -1)"),
    ],
    shapes={"out": "self.dims[:first] + [N] + self.dims[last + 1:]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "N": u32("N"),
            "inner": u32("prod(self.dims[last + 1:])"),
            "block": u32("prod(self.dims[first:last + 1])"),
            "num_elements": u32("out.numel"),
            # per entry k: the size of dim k and its stride within the indexed block
            "sizes": Param("vec4<u32>", "self.dims + [1, 1, 1, 1][self.rank:]"),
            "block_strides": Param("vec4<u32>",
                                   "[prod(self.dims[1:last + 1]) if p0 else 0, "
                                   "prod(self.dims[2:last + 1]) if p1 else 0, "
                                   "prod(self.dims[3:last + 1]) if p2 else 0, "
                                   "prod(self.dims[4:last + 1]) if p3 else 0]"),
            "present": Param("vec4<u32>", "[1 if p0 else 0, 1 if p1 else 0, 1 if p2 else 0, "
                                          "1 if p3 else 0]"),
        },
        bindings=[Bind("input", "self"), Bind("idx0", "indices", item=0),
                  Bind("idx1", "indices", item=1), Bind("idx2", "indices", item=2),
                  Bind("idx3", "indices", item=3), Bind("output", "out", write=True)],
        routes=[Route(INDEX, Elementwise("out.numel"))],
    )],
    cases=[
        Case("gather_rows", (randn(6, 8), [randint(0, 6, 4)]), route="index_tensor", exact=True),
        Case("middle_dim", (randn(2, 5, 3), [None, randint(0, 5, 4)]), exact=True),
        Case("last_dim", (randn(2, 3, 7), [None, None, randint(0, 7, 5)]), exact=True),
        Case("two_adjacent", (randn(4, 5, 6), [randint(0, 4, 3), randint(0, 5, 3)]), exact=True),
        Case("three_of_rank4", (randn(2, 3, 4, 5), [None, randint(0, 3, 6), randint(0, 4, 6),
                                                    randint(0, 5, 6)]), exact=True),
        Case("negative_indices", (randn(5, 4), [tensor([-1, 0, -5, 2], dtype="int64")]),
             exact=True),
        Case("resize", (randn(6, 8), [randint(0, 4, 3)]), resize={"self": (4, 8)}, exact=True),
        Case("no_index", (randn(3, 4), [None]),
             raises="indices holds no index tensor (got 1, expected at least one non-None entry)"),
        Case("too_many_entries", (randn(3, 4), [randint(0, 3, 2), None, None]),
             raises="indices has more entries than self has dims (got 3, expected at most 2)"),
        Case("non_adjacent", (randn(3, 4, 5), [randint(0, 3, 2), None, randint(0, 5, 2)]),
             raises="indices holds index tensors on non-adjacent dims (only adjacent ones are "
                    "supported) (got [2, -1, 2, -1], expected adjacent non-None entries)"),
        Case("lengths_differ", (randn(3, 4), [randint(0, 3, 2), randint(0, 4, 3)]),
             raises="indices holds index tensors of different lengths (got [2, 3, -1, -1], "
                    "expected one length (None entries show as -1))"),
        Case("index_2d", (randn(3, 4), [randint(0, 3, 2, 2)]),
             raises="indices has the wrong rank (got 2, expected 1)"),
    ],
)]
