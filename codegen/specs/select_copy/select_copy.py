"""select_copy.int: out = self.select(dim, index); `index` is an Int or a runtime SymInt.

The kernel moves 32-bit words: a float32 or int32 element, or two halves or four bools
when the inner block is whole words (inner counts words then); other float16 and bool
selects take select_copy_bytes, where an invocation owns an output word and gathers its
four bytes (inner and the element count count bytes then).
"""

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard, Int,
                              Kernel, Op, Output, Route, Tensor, u32)
from codegen.graph.inputs import SymInt, randint, randn, tensor

NAN, INF = float("nan"), float("inf")

DTYPES = (F32, F16, I32, BOOL)
SELECT = Kernel("select_copy", helpers=("../common/each_element.wgsl",))
SELECT_BYTES = Kernel("select_copy_bytes", helpers=("../copy/packed_words.wgsl",),
                      consts={"PER_WORD": "4u", "ALIGNED": "false"})


def bools(*shape: int):
    return randint(0, 2, *shape, dtype="bool")


OPS = [Op(
    name="select_copy",
    targets=["aten.select_copy.int"],
    args=[Tensor("self", DTYPES, rank=(1, 8)), Int("dim"), Int("index", symbolic=True),
          Output("out", DTYPES, rank=(0, 7))],
    let={
        "d": "dim % self.rank",
        "size": "self.dims[dim % self.rank]",
        "inner": "prod(self.dims[d + 1:])",
        "elem_bytes": "1 if self.dtype == 'bool' else (2 if self.dtype == 'float16' else 4)",
        "bytes": "inner * elem_bytes % 4 != 0",  # rows of bools or halves not in whole words
        "unit": "1 if bytes else 4",  # bytes per unit the kernel moves
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
            "inner": u32("inner * elem_bytes // unit"),
            "size": u32("size"),
            "index": u32("index % size"),
            "num_elements": u32("out.numel * elem_bytes // unit"),
        },
        bindings=[Bind("input", "self", elem="u32"), Bind("output", "out", write=True, elem="u32")],
        routes=[Route(SELECT_BYTES, Elementwise("ceil_div(out.numel * elem_bytes, 4)"),
                      when="bytes"),
                Route(SELECT, Elementwise("out.numel * elem_bytes // unit"))],
    )],
    cases=[
        Case("last_token", (randn(1, 7, 32), 1, -1), route="select_copy", exact=True),
        Case("dim0", (randn(4, 3, 5), 0, 2), exact=True),
        Case("last_dim", (randn(3, 5, 6), -1, 4), exact=True),
        Case("rank1_to_scalar", (randn(9), 0, 3), exact=True),
        Case("int32", (randint(-50, 50, 3, 4, 5, dtype="int32"), 1, 2), exact=True),
        Case("ieee_specials", (tensor([[NAN, -0.0], [INF, -INF]]), 1, 0), exact=True),
        # bool: whole words when the inner block is (inner counts words), else bytes
        Case("bool_words", (bools(2, 5, 8), 1, 3), route="select_copy", exact=True),
        Case("bool_last_token", (bools(2, 7, 5), 1, -1), route="select_copy_bytes", exact=True),
        Case("bool_last_dim", (bools(3, 5, 6), -1, 4), exact=True),
        Case("bool_to_scalar", (bools(9), 0, 3), exact=True),
        # 29 x 37 bytes out: 269 words over 2 workgroups
        Case("bool_multi_workgroup", (bools(29, 3, 37), 1, 2), exact=True),
        Case("bool_symint_index", (bools(2, 6, 7), 1, SymInt(0)), resize={"index": 5},
             exact=True),
        # a SymInt index changes between runs without a rebuild
        Case("symint_index", (randn(2, 6, 8), 1, SymInt(0)), resize={"index": 5}, exact=True),
        Case("bool_resize", (bools(4, 6, 5), 1, 2), resize={"self": (2, 6, 3)}, exact=True),
        # float16: words of two halves, or bytes (ViT's class token of an odd width)
        Case("f16_cls_token", (randn(2, 5, 8, dtype="float16"), 1, 0), route="select_copy",
             exact=True),
        Case("f16_odd_width", (randn(2, 7, 5, dtype="float16"), 1, -1),
             route="select_copy_bytes", exact=True),
        Case("rejects_uint8", (randint(0, 9, 2, 3, dtype="uint8"), 0, 1),
             raises="self has an unsupported dtype (got uint8, expected float32 or float16 or "
                    "int32 or bool)"),
        Case("dim_range", (randn(2, 3), 2, 0), raises="dim is out of range (got 2, expected -2..1)"),
        Case("index_range", (randn(2, 3), 1, 3),
             raises="index is out of range for the selected dim (got 3, expected -3..2)"),
    ],
)]
