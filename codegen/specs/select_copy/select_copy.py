"""select_copy.int: out = self.select(dim, index); `index` is an Int or a runtime SymInt."""

from codegen.spec import (Bind, Case, Dispatch, Elementwise, Guard, Int, Kernel, Op, Output, Route,
                          Tensor, u32)
from codegen.spec.inputs import SymInt, randn

SELECT = Kernel("select_copy")

OPS = [Op(
    name="select_copy",
    targets=["aten.select_copy.int"],
    args=[Tensor("self", rank=(1, 8)), Int("dim"), Int("index", symbolic=True),
          Output("out", rank=(0, 7))],
    let={
        "d": "dim % self.rank",
        "size": "self.dims[dim % self.rank]",
    },
    guards=[
        Guard("dim >= -self.rank and dim < self.rank", "dim", "is out of range", got="dim",
              expected="{-self.rank}..{self.rank - 1}"),
        Guard("index >= -size and index < size", "index", "is out of range for the selected dim",
              got="index", expected="{-size}..{size - 1}"),
    ],
    shapes={"out": "self.dims[:d] + self.dims[d + 1:]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "inner": u32("prod(self.dims[d + 1:])"),
            "size": u32("size"),
            "index": u32("index % size"),
            "num_elements": u32("out.numel"),
        },
        bindings=[Bind("input", "self"), Bind("output", "out", write=True)],
        routes=[Route(SELECT, Elementwise("out.numel"))],
    )],
    cases=[
        Case("last_token", (randn(1, 7, 32), 1, -1), route="select_copy", exact=True),
        Case("dim0", (randn(4, 3, 5), 0, 2), exact=True),
        Case("last_dim", (randn(3, 5, 6), -1, 4), exact=True),
        Case("rank1_to_scalar", (randn(9), 0, 3), exact=True),
        # a SymInt index changes between runs without a rebuild
        Case("symint_index", (randn(2, 6, 8), 1, SymInt(0)), resize={"index": 5}, exact=True),
        Case("dim_range", (randn(2, 3), 2, 0), raises="dim is out of range (got 2, expected -2..1)"),
        Case("index_range", (randn(2, 3), 1, 3),
             raises="index is out of range for the selected dim (got 3, expected -3..2)"),
    ],
)]
