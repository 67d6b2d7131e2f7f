"""slice_scatter: out = self with out.slice(dim, start, end, step) replaced by src.

One kernel writes every output element once: an element whose coordinate c along dim lies
in the slice (c = start + j * step, j < n) takes src's element j, every other one self's.
The tensors are seen as [outer, D, inner] (self, out) and [outer, n, inner] (src) around
dim, so it serves every rank. start and end follow torch's slice: negative values count
from the end, both clamp into [0, D], end >= start (INT64_MAX means the end). src must
have the slice's shape and self's dtype (torch would cast; exported graphs do not mix).
Words move 32 bits at a time: a float32 or int32 element, or two halves or four bools
when the inner block is whole words (inner counts words then); other float16 and bool
tensors take slice_scatter_bytes, where an invocation owns an output word and gathers its
four bytes (inner and the element count count bytes then).
"""

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard, Int,
                              Kernel, Op, Output, Route, Tensor, u32)
from codegen.graph.inputs import SymInt, randint, randn, tensor

INT64_MAX = 2**63 - 1
NAN, INF = float("nan"), float("inf")
DTYPES = (F32, F16, I32, BOOL)
SCATTER = Kernel("slice_scatter", helpers=("../common/each_element.wgsl",))
SCATTER_BYTES = Kernel("slice_scatter_bytes")


def bools(*shape: int):
    return randint(0, 2, *shape, dtype="bool")


OPS = [Op(
    name="slice_scatter",
    targets=["aten.slice_scatter.default"],
    args=[Tensor("self", DTYPES), Tensor("src", DTYPES), Int("dim", default=0),
          Int("start", symbolic=True, optional=True, default=0),
          Int("end", symbolic=True, optional=True, default=INT64_MAX),
          Int("step", symbolic=True, default=1), Output("out", DTYPES)],
    let={
        "d": "dim + self.rank if dim < 0 else dim",
        "in_range": "d >= 0 and d < self.rank",
        "D": "self.dims[d] if in_range else 0",
        "inner": "prod(self.dims[d + 1:])",
        "elem_bytes": "1 if self.dtype == 'bool' else (2 if self.dtype == 'float16' else 4)",
        "bytes": "inner * elem_bytes % 4 != 0",  # rows of bools or halves not in whole words
        "unit": "1 if bytes else 4",  # bytes per unit the kernel moves
        # ATen's slice: negative bounds count from the end, then both clamp into [0, D]
        "s0": "start + D if start < 0 else start",
        "s": "0 if s0 < 0 else min(s0, D)",
        "e0": "end + D if end < 0 else end",
        "e": "s if e0 < s else min(e0, D)",
        "n": "ceil_div(e - s, max(step, 1))",
        "slice_dims": "replace_at(self.dims, d, n) if in_range else self.dims",
    },
    guards=[
        Guard("in_range", "dim", "is out of range", got="dim",
              expected="a dim of a rank-{self.rank} tensor"),
        Guard("step >= 1", "step", "is not positive", got="step", expected="a step >= 1"),
        Guard("src.dtype == self.dtype", "src", "has a dtype other than self's", got="src.dtype",
              expected="{self.dtype}"),
        Guard("src.dims == slice_dims", "src", "does not have the slice's shape",
              got="src.dims", expected="{slice_dims}"),
    ],
    shapes={"out": "self.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "inner": u32("inner * elem_bytes // unit"),
            "in_len": u32("D"),
            "start": u32("s"),
            "step": u32("step"),
            "slice_len": u32("n"),
            "num_elements": u32("out.numel * elem_bytes // unit"),
        },
        bindings=[Bind("input", "self", elem="u32"), Bind("src", "src", elem="u32"),
                  Bind("output", "out", write=True, elem="u32")],
        routes=[Route(SCATTER_BYTES, Elementwise("ceil_div(out.numel * elem_bytes, 4)"),
                      when="bytes"),
                Route(SCATTER, Elementwise("out.numel * elem_bytes // unit"))],
        helpers=["slice_source.wgsl"],
    )],
    cases=[
        # Swin Transformer's shifted-window mask: img_mask[:, h, w, :] = cnt, per region
        Case("swin_rows_head", (randn(1, 16, 16, 1), randn(1, 12, 16, 1), 1, 0, -4),
             route="slice_scatter", exact=True),
        Case("swin_rows_middle", (randn(1, 16, 16, 1), randn(1, 2, 16, 1), 1, -4, -2),
             exact=True),
        Case("swin_cols_tail", (randn(1, 12, 16, 1), randn(1, 12, 2, 1), 2, -2, INT64_MAX),
             exact=True),
        Case("step_3", (randn(4, 10), randn(4, 3), 1, 1, 9, 3), exact=True),
        Case("step_2_to_end", (randn(3, 7, 2), randn(3, 4, 2), -2, None, None, 2), exact=True),
        Case("defaults", (randn(6, 4), randn(6, 4)), exact=True),
        Case("clamped_bounds", (randn(5, 3), randn(5, 3), 0, -100, 100), exact=True),
        Case("empty_slice", (randn(5, 4), randn(0, 4), 0, 4, 2), exact=True),
        Case("int32", (randint(-1000, 1000, 3, 6, dtype="int32"),
                       randint(-1000, 1000, 3, 2, dtype="int32"), 1, 2, 4), exact=True),
        Case("ieee_specials", (tensor([[1.0, 2.0, 3.0, 4.0]]), tensor([[NAN, -0.0]]), 1, 1, 3),
             exact=True),
        # 40 x 30 elements out over 5 workgroups
        Case("multi_workgroup", (randn(40, 30), randn(40, 10), 1, 5, 25, 2), exact=True),
        # bool: whole words when the inner block is (inner counts words), else bytes
        Case("bool_words", (bools(2, 6, 8), bools(2, 2, 8), 1, 1, 5, 2), route="slice_scatter",
             exact=True),
        Case("bool_last_dim", (bools(3, 9), bools(3, 4), -1, 0, 7, 2),
             route="slice_scatter_bytes", exact=True),
        # 37 x 103 bytes out: 953 words over 4 workgroups, rows crossing words
        Case("bool_multi_workgroup", (bools(37, 103), bools(37, 51), 1, 2, None, 2),
             exact=True),
        Case("bool_resize", (bools(4, 6, 5), bools(4, 2, 5), 1, 1, 5, 2),
             resize={"self": (2, 6, 3), "src": (2, 2, 3)}, exact=True),
        # float16: words of two halves, or bytes (Swin's mask of one channel)
        Case("f16_words", (randn(2, 6, 4, dtype="float16"), randn(2, 2, 4, dtype="float16"), 1,
                           1, 5, 2), route="slice_scatter", exact=True),
        Case("f16_swin_cols", (randn(1, 16, 16, 1, dtype="float16"),
                               randn(1, 16, 12, 1, dtype="float16"), 2, 0, -4),
             route="slice_scatter_bytes", exact=True),
        Case("f16_last_dim", (randn(3, 9, dtype="float16"), randn(3, 4, dtype="float16"), -1, 0,
                              7, 2), exact=True),
        Case("symint_bounds", (randn(2, 9), randn(2, 7), 1, SymInt(1), SymInt(8)), exact=True),
        Case("resize_symint_end", (randn(2, 9), randn(2, 7), 1, SymInt(1), SymInt(8)),
             resize={"end": 5, "src": (2, 4)}, exact=True),
        Case("resize", (randn(4, 6, 5), randn(4, 2, 5), 1, 1, 5, 2),
             resize={"self": (2, 6, 3), "src": (2, 2, 3)}, exact=True),
        Case("dim_out_of_range", (randn(3, 8), randn(3, 8), 2),
             raises="dim is out of range (got 2, expected a dim of a rank-2 tensor)"),
        Case("zero_step", (randn(3, 8), randn(3, 4), 1, 0, 4, 0),
             raises="step is not positive (got 0, expected a step >= 1)"),
        Case("src_dtype", (randn(3, 8), randint(0, 5, 3, 4, dtype="int32"), 1, 0, 4),
             raises="src has a dtype other than self's (got int32, expected float32)"),
        Case("src_shape", (randn(3, 8), randn(3, 5), 1, 0, 4),
             raises="src does not have the slice's shape (got [3, 5], expected [3, 4])"),
        Case("src_rank", (randn(3, 8), randn(3, 4, 1), 1, 0, 4),
             raises="src does not have the slice's shape (got [3, 4, 1], expected [3, 4])"),
    ],
)]
