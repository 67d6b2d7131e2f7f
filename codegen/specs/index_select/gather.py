"""gather: out[c] = self[c with c[dim] replaced by index[c]] (torch.gather), rank 0..8.

The output has the index's shape; each dim of index other than dim is at most self's.
float32 and int32 move as 32-bit words, float16 as halves (gather_elements_halves, the
same body: an invocation owns an output word of two halves and moves their bits, on
every device); the index is int64 in torch and int32 on the GPU. An index outside
0..self.dims[dim]-1, negative ones included (torch raises on both; a GPU kernel cannot),
writes a quiet NaN's bits (the word 0x7fc00000, the half 0x7e00), as index_select does.
"""

from codegen.language import (F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard, Ignored, Int,
                              Kernel, Op, Output, Param, Route, Tensor, u32)
from codegen.graph.inputs import randint, randn, tensor

NAN, INF = float("nan"), float("inf")
DTYPES = (F32, F16, I32)
MAX_RANK = 8
GATHER = Kernel("gather_elements", helpers=("../common/each_word.wgsl",),
                consts={"PER_WORD": "1u", "NAN_BITS": "0x7fc00000u"})
GATHER_HALVES = GATHER.variant("gather_elements_halves",
                               consts={"PER_WORD": "2u", "NAN_BITS": "0x7e00u"})
SLOTS = "array<vec4<u32>, 2>"

OPS = [Op(
    name="gather",
    targets=["aten.gather.default"],
    args=[Tensor("self", DTYPES, rank=(0, MAX_RANK)), Int("dim"),
          Tensor("index", (I32,), rank=(0, MAX_RANK)),
          Ignored("sparse_grad", accepts=(False, True)),  # the gradient's layout only
          Output("out", DTYPES, rank=(0, MAX_RANK))],
    let={
        "dims": "self.dims if self.rank > 0 else [1]",  # a 0-d self is one row of one
        "index_dims": "index.dims if index.rank > 0 else [1]",
        "d": "dim + len(dims) if dim < 0 else dim",
        "in_range": "d >= 0 and d < len(dims)",
        "strides": "contiguous_strides(dims)",
        "too_large": "[k for k in range(len(dims)) if k != d and k < len(index_dims) and "
                     "index_dims[k] > dims[k]]",
    },
    guards=[
        Guard("in_range", "dim", "is out of range", got="dim",
              expected="{-len(dims)}..{len(dims) - 1}"),
        Guard("index.rank == self.rank", "index",
              "has a different number of dims from self", got="index.rank",
              expected="{self.rank}"),
        Guard("len(too_large) == 0", "index", "is larger than self outside dim",
              got="index.dims", expected="each dim but {d} at most self's {self.dims}"),
    ],
    shapes={"out": "index.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "out_dims": Param(SLOTS, f"right_align(index_dims, {MAX_RANK}, 1)"),
            "self_strides": Param(SLOTS, f"right_align(replace_at(strides, d, 0), {MAX_RANK}, 0)"),
            "dim_stride": u32("strides[d]"),
            "dim_size": u32("dims[d]"),
            "num_elements": u32("out.numel"),
            # output words: two halves a word for float16
            "num_words": u32(f"ceil_div(out.numel, 2) if self.dtype == '{F16}' else out.numel"),
        },
        bindings=[Bind("input", "self", elem="u32"), Bind("index", "index"),
                  Bind("output", "out", write=True, elem="u32")],
        routes=[Route(GATHER_HALVES, Elementwise("(out.numel + 1) // 2"),
                      when=f"self.dtype == '{F16}'"),
                Route(GATHER, Elementwise("out.numel"))],
    )],
    cases=[
        Case("last_dim", (randn(3, 5, 7), -1, randint(0, 7, 3, 5, 4)), route="gather_elements",
             exact=True),
        Case("first_dim", (randn(6, 4), 0, randint(0, 6, 9, 4)), exact=True),
        Case("middle_dim_smaller_index", (randn(4, 7, 5), 1, randint(0, 7, 3, 11, 2)),
             exact=True),
        # top-k style: gather the scores at sorted positions
        Case("rows_of_positions", (randn(2, 13), 1, tensor([[12, 0, 5], [1, 1, 1]],
                                                          dtype="int64")), exact=True),
        Case("rank0", (tensor(2.5), 0, tensor(0, dtype="int64")), exact=True),
        Case("rank8", (randn(2, 1, 3, 2, 1, 2, 3, 2), 5, randint(0, 2, 2, 1, 3, 2, 1, 3, 3, 2)),
             exact=True),
        Case("int32", (randint(-1000, 1000, 3, 4, 5, dtype="int32"), 2,
                       randint(0, 5, 3, 4, 5)), exact=True),
        Case("int32_index", (randn(5, 4), 0, randint(0, 5, 2, 4, dtype="int32")), exact=True),
        Case("ieee_specials", (tensor([[NAN, -0.0, INF, -INF, 1e-45, -NAN]]), 1,
                               tensor([[5, 4, 3, 2, 1, 0, 0, 2]], dtype="int64")), exact=True),
        Case("empty_index", (randn(4, 3), 0, randint(0, 4, 0, 3)), exact=True),
        Case("sparse_grad", (randn(3, 4), 1, randint(0, 4, 3, 2)), kwargs={"sparse_grad": True},
             exact=True),
        # 31 x 37 words out over several workgroups
        Case("multi_workgroup", (randn(40, 37), 0, randint(0, 40, 31, 37)), exact=True),
        Case("resize", (randn(4, 6, 8), 1, randint(0, 6, 4, 5, 8)),
             resize={"self": (2, 6, 8), "index": (2, 3, 7)}, exact=True),
        Case("dim_out_of_range", (randn(3, 4), 2, randint(0, 3, 3, 4)),
             raises="dim is out of range (got 2, expected -2..1)"),
        Case("rank_mismatch", (randn(3, 4), 1, randint(0, 4, 2)),
             raises="index has a different number of dims from self (got 1, expected 2)"),
        Case("index_too_large", (randn(3, 4), 1, randint(0, 4, 4, 2)),
             raises="index is larger than self outside dim (got [4, 2], expected each dim but 1 "
                    "at most self's [3, 4])"),
        Case("rejects_float_index", (randn(3, 4), 0, randn(2, 4)),
             raises="index has an unsupported dtype (got float32, expected int32)"),
        Case("rejects_bool", (randint(0, 2, 3, 4, dtype="bool"), 0, randint(0, 3, 2, 4)),
             raises="self has an unsupported dtype (got bool, expected float32 or float16 or "
                    "int32)"),
        # float16: two halves a word, bits moved (odd counts: a half-filled last word)
        Case("f16_last_dim", (randn(3, 5, 7, dtype="float16"), -1, randint(0, 7, 3, 5, 3)),
             route="gather_elements_halves", exact=True),
        Case("f16_first_dim", (randn(6, 5, dtype="float16"), 0, randint(0, 6, 9, 5)),
             exact=True),
        Case("f16_specials", (tensor([[NAN, -0.0, INF, -INF, 65504.0, -65504.0, 2.0 ** -24]],
                                     dtype="float16"), 1,
                              tensor([[6, 5, 4, 3, 2, 1, 0, 0, 6]], dtype="int64")), exact=True),
        Case("f16_rank0", (tensor(2.5, dtype="float16"), 0, tensor(0, dtype="int64")),
             exact=True),
        Case("f16_multi_workgroup", (randn(40, 37, dtype="float16"), 0, randint(0, 40, 31, 37)),
             exact=True),
        Case("f16_resize", (randn(4, 6, 8, dtype="float16"), 1, randint(0, 6, 4, 5, 7)),
             resize={"self": (2, 6, 8), "index": (2, 3, 5)}, exact=True),
    ],
)]
