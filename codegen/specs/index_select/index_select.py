"""index_select: out = self.index_select(dim, index), index a 0-d or 1-D int tensor.

The kernels see self as [outer, D, inner] around dim and out as [outer, n, inner] (n the
index's element count): out[o, c, i] = self[o, index[c], i]. torch's roll decomposes into
this (Swin Transformer's shifted windows). float32 and int32 move as 32-bit words, four
at a time (vec4) when inner % 4 == 0; float16 as words of two halves (vec4s when inner %
8 == 0, two NaN halves for a bad index), an odd float16 inner block refused. A 0-d self is a 1-element row (dim 0 or -1, one
index, a 0-d result), as in torch.

index is int64 in torch and int32 on the GPU. An index outside 0..D-1, negative ones
included (torch raises on both; a GPU kernel cannot), writes the word 0x7fc00000: a quiet
NaN in float32 (2143289344 in int32), so a bad index shows up instead of reading a
plausible wrong element.
"""

from codegen.language import (F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard, Int,
                              Kernel, Op, Output, Route, Tensor, u32)
from codegen.graph.inputs import randint, randn, tensor

NAN, INF = float("nan"), float("inf")
DTYPES = (F32, F16, I32)
# a word (u32) or four (vec4<u32>) per invocation, from one body; float16 words hold two
SELECT = Kernel("index_select", helpers=("../common/each_element.wgsl",),
                aliases={"Word": "u32"}, consts={"NAN_WORD": "0x7fc00000u"})
SELECT_VEC4 = SELECT.variant("index_select_vec4", aliases={"Word": "vec4<u32>"})
SELECT_F16 = SELECT.variant("index_select_f16", consts={"NAN_WORD": "0x7e007e00u"})
SELECT_F16_VEC4 = SELECT_VEC4.variant("index_select_f16_vec4", consts={"NAN_WORD": "0x7e007e00u"})
HALF = "self.dtype == 'float16'"
WORDS = f"(inner // 2 if {HALF} else inner)"  # words of a row


def select_dispatch(kernel: Kernel, half: Kernel, elem: str, lanes: int, when: str) -> Dispatch:
    count = f"(out.numel // 2 if {HALF} else out.numel) // {lanes}"  # words (or vec4s) out
    return Dispatch(
        params={
            "inner": u32(f"{WORDS} // {lanes}"),
            "in_len": u32("D"),
            "out_len": u32("index.numel"),
            "num_elements": u32(count),
        },
        bindings=[Bind("input", "self", elem=elem), Bind("index", "index"),
                  Bind("output", "out", write=True, elem=elem)],
        routes=[Route(half, Elementwise(count), when=HALF), Route(kernel, Elementwise(count))],
        name=kernel.name, when=when)


OPS = [Op(
    name="index_select",
    targets=["aten.index_select.default"],
    args=[Tensor("self", DTYPES), Int("dim"), Tensor("index", (I32,), rank=(0, 1)),
          Output("out", DTYPES)],
    let={
        "dims": "self.dims if self.rank > 0 else [1]",  # a 0-d self is one row of one
        "d": "dim + len(dims) if dim < 0 else dim",
        "D": "dims[d] if d >= 0 and d < len(dims) else 0",
        "inner": "prod(dims[d + 1:])",
    },
    guards=[
        Guard("d >= 0 and d < len(dims)", "dim", "is out of range", got="dim",
              expected="{-len(dims)}..{len(dims) - 1}"),
        Guard("self.rank > 0 or index.numel == 1", "index", "does not hold one index for a "
              "0-d self", got="index.numel", expected="1"),
        Guard(f"not ({HALF}) or inner % 2 == 0", "self",
              "holds float16 rows of an odd length past dim (rows move as whole words)",
              got="self.dims", expected="an even number of elements after dim"),
    ],
    shapes={"out": "replace_at(self.dims, d, index.numel) if self.rank > 0 else []"},
    resize="dynamic",
    dispatches=[select_dispatch(SELECT_VEC4, SELECT_F16_VEC4, "vec4<u32>", 4,
                                f"{WORDS} % 4 == 0"),
                select_dispatch(SELECT, SELECT_F16, "u32", 1, f"{WORDS} % 4 != 0")],
    cases=[
        # torch.roll(x, -2, dims=1) on Swin's [1, 16, 16, 32]: index (arange + 2) fmod 16
        Case("roll_rows", (randn(1, 16, 16, 32), 1, tensor([(k + 2) % 16 for k in range(16)],
                                                            dtype="int64")),
             route="index_select_vec4", exact=True),
        Case("roll_cols", (randn(1, 16, 16, 32), 2, tensor([(k + 14) % 16 for k in range(16)],
                                                            dtype="int64")), exact=True),
        Case("last_dim", (randn(3, 5, 7), -1, randint(0, 7, 9)), route="index_select",
             exact=True),
        Case("dim0_repeats", (randn(6, 3), 0, tensor([5, 0, 5, 5, 2], dtype="int64")),
             exact=True),
        Case("odd_inner", (randn(2, 6, 3), 1, randint(0, 6, 4)), exact=True),
        Case("scalar_index", (randn(4, 8), 0, tensor(3, dtype="int64")), exact=True),
        Case("empty_index", (randn(4, 8), 1, tensor([], dtype="int64")), exact=True),
        Case("scalar_self", (tensor(2.5), -1, tensor([0], dtype="int64")), exact=True),
        Case("scalar_self_scalar_index", (tensor(-1.5), 0, tensor(0, dtype="int64")), exact=True),
        Case("int32_index", (randn(5, 4), 0, randint(0, 5, 6, dtype="int32")), exact=True),
        Case("int32", (randint(-1000, 1000, 3, 4, 5, dtype="int32"), 1, randint(0, 4, 7)),
             exact=True),
        Case("ieee_specials", (tensor([[NAN, -0.0, INF, -INF, 1.0]]), 1,
                               tensor([3, 2, 1, 0, 4, 0], dtype="int64")), exact=True),
        # 301 x 9 words out over 11 workgroups
        Case("multi_workgroup", (randn(40, 9), 0, randint(0, 40, 301)), exact=True),
        Case("resize", (randn(4, 6, 8), 1, randint(0, 6, 5)),
             resize={"self": (2, 6, 8), "index": (3,)}, exact=True),
        Case("resize_odd", (randn(4, 6, 5), 1, randint(0, 3, 5)),
             resize={"self": (2, 3, 5)}, exact=True),
        Case("dim_out_of_range", (randn(3, 4), 2, randint(0, 3, 2)),
             raises="dim is out of range (got 2, expected -2..1)"),
        Case("scalar_self_dim_out_of_range", (tensor(1.0), 1, tensor([0], dtype="int64")),
             raises="dim is out of range (got 1, expected -1..0)"),
        Case("scalar_self_two_indices", (tensor(1.0), 0, tensor([0, 0], dtype="int64")),
             raises="index does not hold one index for a 0-d self (got 2, expected 1)"),
        Case("index_rank2", (randn(3, 4), 0, randint(0, 3, 2, 2)),
             raises="index has the wrong rank (got 2, expected 0..1)"),
        Case("rejects_float_index", (randn(3, 4), 0, randn(2)),
             raises="index has an unsupported dtype (got float32, expected int32)"),
        # float16: vec4s of 8 halves or words of 2 (Swin's roll of [1, 16, 16, C])
        Case("f16_roll_rows", (randn(1, 16, 16, 8, dtype="float16"), 1,
                               tensor([(k + 2) % 16 for k in range(16)], dtype="int64")),
             route="index_select_f16_vec4", exact=True),
        Case("f16_words", (randn(2, 6, 6, dtype="float16"), 1, randint(0, 6, 4)),
             route="index_select_f16", exact=True),
        Case("rejects_odd_f16_rows", (randn(2, 6, 3, dtype="float16"), 1, randint(0, 6, 4)),
             raises="self holds float16 rows of an odd length past dim (rows move as whole "
                    "words) (got [2, 6, 3], expected an even number of elements after dim)"),
        Case("rejects_bool", (randint(0, 2, 3, 4, dtype="bool"), 0, randint(0, 3, 2)),
             raises="self has an unsupported dtype (got bool, expected float32 or float16 or "
                    "int32)"),
    ],
)]
