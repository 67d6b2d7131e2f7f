"""permute_copy (and permute), expand_copy, repeat, as_strided_copy and copy: one strided
gather, rank 0..8.

Each output element reads input[sum_k (c_k % mods[k]) * strides[k]] at its coordinates c
(dims right-aligned into 8 slots): permute_copy permutes the input's strides, expand_copy
gives a broadcast dim stride 0, repeat wraps each coordinate around its input dim,
as_strided_copy reads the input's contiguous storage with the strides it is given (the
view HF's adaptive_avg_pool1d leaves after its mean; a storage offset other than 0 is
refused: the gather has no base offset, and no exported model has needed one), copy
gathers src into self's shape as expand_copy does (stride 0 on src's broadcast dims); flip
and pixel_shuffle (shuffle.py) are gathers too (_gather.py holds the shared parts). When
the innermost output dim reads its input dim contiguously and every size on the way is a
multiple of 4, the vec4 kernel moves four elements per invocation (one index computation
per vec4). float32 and int32 move as 32-bit words and share those kernels; bool (one byte
per element) has its own kernel, in which an invocation owns one output word and
assembles its four bytes (one aligned input word when the vec4 condition holds).
"""

from codegen.language import Case, Guard, Ignored, Int, IntList, Op, Output, Tensor
from codegen.graph.inputs import randint, randn, tensor
from codegen.specs.permute_copy._gather import DTYPES, MAX_RANK, gather

NAN, INF = float("nan"), float("inf")


PERMUTED = "permute(self.dims, dims)"



def permute_op(name: str, target: str, cases: list[Case]) -> Op:
    """permute_copy, and permute (the view the edge dialect keeps for some graphs; the
    delegate's tensors are contiguous, so the view is the same copy)."""
    return Op(
        name=name,
        targets=[target],
        args=[Tensor("self", DTYPES, rank=(0, MAX_RANK)), IntList("dims"),
              Output("out", DTYPES, rank=(0, MAX_RANK))],
        guards=[PERMUTATION],
        shapes={"out": PERMUTED},
        resize="dynamic",
        dispatches=PERMUTE_GATHER,
        cases=cases,
    )


PERMUTATION = Guard("is_permutation(dims, self.rank)", "dims",
                    "is not a permutation of the input's dims", got="dims",
                    expected="each of 0..{self.rank - 1} once (negatives wrap)")
# vec4 when the innermost dim stays innermost (every other stride is a multiple of it)
PERMUTE_GATHER = gather(PERMUTED, PERMUTED, "permute(contiguous_strides(self.dims), dims)",
                        "self.rank > 0 and normalize_dims(dims, self.rank)[-1] == self.rank - 1 "
                        "and self.dims[-1] % 4 == 0")

PERMUTE_CASES = [
    Case("heads_to_front", (randn(2, 5, 4, 8), [0, 2, 1, 3]), route="strided_gather_vec4",
         exact=True),
    Case("transpose_2d", (randn(7, 9), [1, 0]), route="strided_gather", exact=True),
    Case("negative_dims", (randn(3, 4, 5), [-1, 0, -2]), exact=True),
    Case("identity_1d", (randn(11), [0]), exact=True),
    Case("rank0", (randn(), []), exact=True),
    # Hugging Face window attention (Swin) and SigLIP patch reshapes
    Case("window_partition_rank6", (randn(1, 3, 4, 2, 4, 8), [0, 1, 3, 2, 4, 5]),
         route="strided_gather_vec4", exact=True),
    Case("rank5_odd", (randn(2, 3, 5, 1, 7), [4, 2, 0, 3, 1]), exact=True),
    Case("rank8", (randn(2, 1, 3, 2, 1, 2, 3, 2), [7, 6, 5, 4, 3, 2, 1, 0]), exact=True),
    Case("int32", (randint(-100, 100, 3, 4, 2, dtype="int32"), [2, 0, 1]), exact=True),
    # bool: an invocation owns an output word of 4 bytes
    Case("bool_heads_to_front", (randint(0, 2, 2, 3, 5, 8, dtype="bool"), [0, 2, 1, 3]),
         route="strided_gather_bytes", exact=True),
    Case("bool_transpose_odd", (randint(0, 2, 7, 9, dtype="bool"), [1, 0]),
         route="strided_gather_bytes", exact=True),
    # float16: an invocation owns an output word of 2 halves (aligned rows: one input word)
    Case("f16_heads_to_front", (randn(2, 3, 5, 8, dtype="float16"), [0, 2, 1, 3]),
         route="strided_gather_halves", exact=True),
    Case("f16_transpose_odd", (randn(7, 9, dtype="float16"), [1, 0]), exact=True),
    Case("f16_specials", (tensor([[NAN, -0.0, 65504.0], [-INF, 2.0 ** -24, 1.0]],
                                 dtype="float16"), [1, 0]), exact=True),
    Case("bool_rank5_odd", (randint(0, 2, 2, 3, 5, 1, 7, dtype="bool"), [4, 2, 0, 3, 1]),
         exact=True),
    Case("bool_rank0", (tensor(True, dtype="bool"), []), exact=True),
    # 2431 bytes: 608 words, the last one partial, over 3 workgroups
    Case("bool_multi_workgroup", (randint(0, 2, 17, 13, 11, dtype="bool"), [2, 0, 1]),
         exact=True),
    Case("bool_resize", (randint(0, 2, 3, 5, 7, dtype="bool"), [2, 0, 1]),
         resize={"self": (2, 3, 5)}, exact=True),
    Case("ieee_specials", (tensor([[NAN, -0.0, INF], [-INF, 1.0, -NAN]]), [1, 0]),
         exact=True),
    Case("multi_workgroup", (randn(17, 13, 11), [2, 0, 1]), exact=True),
    Case("resize", (randn(2, 6, 3, 4), [0, 2, 1, 3]), resize={"self": (2, 3, 3, 4)},
         exact=True),
    Case("repeated_dim", (randn(3, 4), [0, 0]),
         raises="dims is not a permutation of the input's dims (got [0, 0], expected each of "
                "0..1 once (negatives wrap))"),
    Case("wrong_length", (randn(3, 4, 5), [1, 0]),
         raises="dims is not a permutation of the input's dims (got [1, 0], expected each of "
                "0..2 once (negatives wrap))"),
    Case("rank9", (randn(1, 1, 1, 1, 1, 1, 1, 1, 2), list(range(9))),
         raises="self has the wrong rank (got 9, expected 0..8)"),
    
]

PERMUTE_COPY = permute_op("permute_copy", "aten.permute_copy.default", PERMUTE_CASES)
# permute.default: the same cases (names and routes), run through torch's permute view
PERMUTE = permute_op("permute", "aten.permute.default", PERMUTE_CASES)

EXPAND_COPY = Op(
    name="expand_copy",
    targets=["aten.expand_copy.default"],
    args=[Tensor("self", DTYPES, rank=(0, MAX_RANK)), IntList("size"),
          Ignored("implicit", accepts=(False, True)), Output("out", DTYPES)],
    let={
        "lead": "len(size) - self.rank",  # new leading dims
        # -1 keeps an input dim; a new leading dim takes its size as given
        "target": "[size[k] if k < lead or size[k] != -1 else self.dims[k - lead] "
                  "for k in range(len(size))]",
        "negative": "[k for k in range(len(target)) if target[k] < 0]",
        "clashing": "[k for k in range(len(size)) if k >= lead and lead >= 0 and "
                    "self.dims[k - lead] != 1 and target[k] != self.dims[k - lead]]",
    },
    guards=[
        Guard("lead >= 0", "size", "has fewer entries than the input has dims", got="size",
              expected="at least {self.rank} entries"),
        Guard("len(size) <= 8", "size", "has too many entries", got="size",
              expected="at most 8 entries"),
        Guard("len(negative) == 0", "size", "holds a negative size where no input dim is kept",
              got="size", expected="sizes >= 0, or -1 for one of the last {self.rank} entries"),
        Guard("len(clashing) == 0", "size", "changes an input dim that is not 1", got="size",
              expected="-1 or the input's size where its dims {self.dims} are not 1"),
    ],
    shapes={"out": "target"},
    resize="dynamic",
    dispatches=gather("target", "target", "broadcast_strides(self.dims, target)",
                      "self.rank > 0 and self.dims[-1] == target[-1] and target[-1] % 4 == 0"),
    cases=[
        Case("rows", (randn(1, 8), [6, 8]), route="strided_gather_vec4", exact=True),
        Case("columns", (randn(5, 1), [5, 7]), route="strided_gather", exact=True),
        Case("minus_one_keeps", (randn(3, 1, 4), [-1, 5, -1]), exact=True),
        Case("new_leading_dims", (randn(3, 1), [2, 4, 3, 6]), exact=True),
        Case("from_scalar", (randn(), [2, 3]), exact=True),
        Case("identity", (randn(2, 3), [2, 3]), exact=True),
        Case("zero_size", (randn(1, 3), [0, 3]), exact=True),
        Case("attention_mask", (randn(2, 1, 1, 12), [2, 4, 12, 12]), exact=True),
        Case("int32", (randint(-9, 9, 4, 1, dtype="int32"), [4, 3]), exact=True),
        # Hugging Face's causal mask [B, 1, S, S] over the heads (rows of whole words)
        Case("bool_attention_mask", (randint(0, 2, 2, 1, 12, 12, dtype="bool"), [2, 4, 12, 12]),
             route="strided_gather_bytes", exact=True),
        Case("f16_attention_mask", (randn(2, 1, 1, 12, dtype="float16"), [2, 4, 12, 12]),
             route="strided_gather_halves", exact=True),
        Case("f16_columns", (randn(5, 1, dtype="float16"), [5, 7]), exact=True),
        Case("bool_columns", (randint(0, 2, 5, 1, dtype="bool"), [5, 7]), exact=True),
        Case("bool_new_leading_dims", (randint(0, 2, 3, 1, dtype="bool"), [2, 3, 3, 5]),
             exact=True),
        Case("bool_from_scalar", (tensor(True, dtype="bool"), [3, 3]), exact=True),
        Case("bool_multi_workgroup", (randint(0, 2, 1, 37, 1, dtype="bool"), [29, 37, 3]),
             exact=True),
        Case("bool_resize", (randint(0, 2, 5, 1, 7, dtype="bool"), [-1, 3, -1]),
             resize={"self": (2, 1, 7)}, exact=True),
        Case("ieee_specials", (tensor([[NAN], [-0.0], [-INF]]), [3, 5]), exact=True),
        Case("implicit", (randn(3, 1), [3, 2]), kwargs={"implicit": True}, exact=True),
        Case("multi_workgroup", (randn(1, 37, 1), [29, 37, 3]), exact=True),
        Case("resize", (randn(5, 1, 8), [-1, 3, -1]), resize={"self": (2, 1, 8)}, exact=True),
        Case("too_few_sizes", (randn(2, 3), [3]),
             raises="size has fewer entries than the input has dims (got [3], expected at least "
                    "2 entries)"),
        Case("too_many_sizes", (randn(2), [1] * 8 + [2]),
             raises="size has too many entries (got [1, 1, 1, 1, 1, 1, 1, 1, 2], expected at "
                    "most 8 entries)"),
        Case("minus_one_leading", (randn(2), [-1, 2]),
             raises="size holds a negative size where no input dim is kept (got [-1, 2], "
                    "expected sizes >= 0, or -1 for one of the last 1 entries)"),
        Case("changes_dim", (randn(2, 3), [2, 4]),
             raises="size changes an input dim that is not 1 (got [2, 4], expected -1 or the "
                    "input's size where its dims [2, 3] are not 1)"),
    ],
)

# the input's dims right-aligned under repeats (1s in front)
PADDED = "[1 for k in range(len(repeats) - self.rank)] + self.dims"

REPEAT = Op(
    name="repeat",
    targets=["aten.repeat.default"],
    args=[Tensor("self", DTYPES, rank=(0, MAX_RANK)), IntList("repeats"), Output("out", DTYPES)],
    let={"padded": PADDED},
    guards=[
        Guard("len(repeats) >= self.rank", "repeats", "has fewer entries than the input has dims",
              got="repeats", expected="at least {self.rank} entries"),
        Guard("len(repeats) <= 8", "repeats", "has too many entries", got="repeats",
              expected="at most 8 entries"),
        Guard("len(repeats) == 0 or min(repeats) >= 0", "repeats", "holds a negative count",
              got="repeats", expected="counts >= 0"),
    ],
    shapes={"out": "[repeats[k] * padded[k] for k in range(len(repeats))]"},
    resize="dynamic",
    dispatches=gather("[repeats[k] * padded[k] for k in range(len(repeats))]", "padded",
                      "contiguous_strides(padded)",
                      "len(repeats) > 0 and padded[-1] % 4 == 0"),
    cases=[
        Case("tile_rows", (randn(3, 8), [2, 3]), route="strided_gather_vec4", exact=True),
        Case("odd", (randn(3, 5), [2, 3]), route="strided_gather", exact=True),
        Case("new_leading_dims", (randn(2, 3), [4, 1, 2]), exact=True),
        Case("ones", (randn(2, 3), [1, 1]), exact=True),
        Case("zero_count", (randn(2, 3), [0, 2]), exact=True),
        Case("scalar", (randn(), [3]), exact=True),
        Case("scalar_no_repeats", (randn(), []), exact=True),
        Case("int32", (randint(-9, 9, 2, 2, dtype="int32"), [3, 1, 2]), exact=True),
        Case("bool_tile_rows", (randint(0, 2, 3, 8, dtype="bool"), [2, 3]),
             route="strided_gather_bytes", exact=True),
        Case("f16_tile_rows", (randn(3, 5, dtype="float16"), [2, 3]),
             route="strided_gather_halves", exact=True),
        Case("bool_odd", (randint(0, 2, 3, 5, dtype="bool"), [2, 1, 3]), exact=True),
        Case("bool_resize", (randint(0, 2, 4, 5, dtype="bool"), [2, 3]), resize={"self": (3, 2)},
             exact=True),
        Case("ieee_specials", (tensor([NAN, -0.0, INF, -INF]), [2, 3]), exact=True),
        Case("multi_workgroup", (randn(7, 11), [13, 5]), exact=True),
        Case("resize", (randn(4, 5), [2, 3]), resize={"self": (3, 2)}, exact=True),
        Case("too_few_repeats", (randn(2, 3), [2]),
             raises="repeats has fewer entries than the input has dims (got [2], expected at "
                    "least 2 entries)"),
        Case("too_many_repeats", (randn(2), [1] * 9),
             raises="repeats has too many entries (got [1, 1, 1, 1, 1, 1, 1, 1, 1], expected at "
                    "most 8 entries)"),
        Case("negative_count", (randn(2), [-1]),
             raises="repeats holds a negative count (got [-1], expected counts >= 0)"),
    ],
)

AS_STRIDED_COPY = Op(
    name="as_strided_copy",
    targets=["aten.as_strided_copy.default"],
    args=[Tensor("self", DTYPES, rank=(0, MAX_RANK)), IntList("size"), IntList("stride"),
          Int("storage_offset", symbolic=True, optional=True), Output("out", DTYPES)],
    let={
        # the last storage element the view reads (-1 when it reads none)
        "last": "sum([(size[k] - 1) * stride[k] for k in range(len(size))]) "
                "if len(size) == len(stride) and prod(size) > 0 else -1",
    },
    guards=[
        Guard("len(size) <= 8", "size", "has too many entries", got="size",
              expected="at most 8 entries"),
        Guard("len(stride) == len(size)", "stride", "does not give one stride per size",
              got="stride", expected="{len(size)} strides"),
        Guard("len(size) == 0 or min(size) >= 0", "size", "holds a negative size", got="size",
              expected="sizes >= 0"),
        Guard("len(stride) == 0 or min(stride) >= 0", "stride", "holds a negative stride",
              got="stride", expected="strides >= 0"),
        Guard("storage_offset is None or storage_offset == 0", "storage_offset",
              "is not supported", got="storage_offset", expected="None or 0"),
        Guard("last < self.numel", "size",
              "reads past the end of the input's storage", got="size",
              expected="a view of at most {self.numel} elements with strides {stride}"),
    ],
    shapes={"out": "size"},
    resize="dynamic",
    # vec4 when the innermost dim reads contiguously and every other stride keeps 4-alignment
    dispatches=gather("size", "size", "stride",
                      "len(size) > 0 and stride[-1] == 1 and size[-1] % 4 == 0 and "
                      "len([s for s in stride if s % 4 != 0]) <= 1"),
    cases=[
        # adaptive_avg_pool1d's view of its [1, 32, 1, 1] mean (Swin's pooler)
        Case("pooled_view", (randn(1, 32, 1, 1), [1, 32, 1, 1], [32, 1, 32, 32], None),
             route="strided_gather", exact=True),
        Case("rows_vec4", (randn(6, 8), [3, 8], [16, 1], 0), route="strided_gather_vec4",
             exact=True),
        Case("overlapping_windows", (randn(20), [4, 5], [3, 1], None), exact=True),
        Case("broadcast_stride", (randn(3), [2, 3], [0, 1], None), exact=True),
        Case("empty", (randn(4), [0, 3], [1, 1], None), exact=True),
        Case("bool_transpose", (randint(0, 2, 5, 7, dtype="bool"), [7, 5], [1, 7], None),
             route="strided_gather_bytes", exact=True),
        Case("f16_transpose", (randn(5, 7, dtype="float16"), [7, 5], [1, 7], None),
             route="strided_gather_halves", exact=True),
        Case("int32", (randint(-9, 9, 12, dtype="int32"), [3, 2], [4, 2], None), exact=True),
        Case("ieee_specials", (tensor([NAN, -0.0, INF, -INF, 1e-45, -NAN]), [2, 3], [1, 2],
                               None), exact=True),
        Case("too_many_sizes", (randn(2), [1] * 9, [0] * 9, None),
             raises="size has too many entries (got [1, 1, 1, 1, 1, 1, 1, 1, 1], expected at "
                    "most 8 entries)"),
        Case("stride_count", (randn(6), [2, 3], [3], None),
             raises="stride does not give one stride per size (got [3], expected 2 strides)"),
        Case("negative_size", (randn(6), [-1, 3], [3, 1], None),
             raises="size holds a negative size (got [-1, 3], expected sizes >= 0)"),
        Case("negative_stride", (randn(6), [2, 3], [-3, 1], None),
             raises="stride holds a negative stride (got [-3, 1], expected strides >= 0)"),
        Case("storage_offset", (randn(6), [2, 2], [2, 1], 1),
             raises="storage_offset is not supported (got 1, expected None or 0)"),
        Case("past_the_end", (randn(6), [2, 4], [3, 1], None),
             raises="size reads past the end of the input's storage (got [2, 4], expected a "
                    "view of at most 6 elements with strides [3, 1])"),
    ],
)

# aten.copy(self, src): self's shape and dtype, src's values broadcast to that shape (the
# functional form of `self.copy_(src)`: Swin's attention mask fills slices of a zeros
# tensor with a 0-d src, then slice_scatters them back). src must broadcast to self's
# shape without adding dims, as torch requires; a copy that converts dtypes is refused.
COPY = Op(
    name="copy",
    targets=["aten.copy.default"],
    args=[Tensor("self", DTYPES, rank=(0, MAX_RANK)), Tensor("src", DTYPES, rank=(0, MAX_RANK)),
          Ignored("non_blocking", accepts=(False, True)), Output("out", DTYPES)],
    let={
        # src's dims (right-aligned under self's) that neither equal self's nor are 1
        "clashing": "[k for k in range(src.rank) if src.dims[k] != 1 and "
                    "src.dims[k] != self.dims[k + self.rank - src.rank]] "
                    "if src.rank <= self.rank else [0]",
    },
    guards=[
        Guard("src.dtype == self.dtype", "src", "has a different dtype from self",
              got="src.dtype", expected="{self.dtype} (a converting copy is not implemented)"),
        Guard("len(clashing) == 0", "src", "does not broadcast to self's shape", got="src.dims",
              expected="at most {self.rank} dims, each 1 or equal to its dim of {self.dims} "
                       "(right-aligned)"),
    ],
    shapes={"out": "self.dims"},
    resize="dynamic",
    dispatches=gather("self.dims", "self.dims", "broadcast_strides(src.dims, self.dims)",
                      "src.rank > 0 and src.dims[-1] == self.dims[-1] and "
                      "self.dims[-1] % 4 == 0", source="src"),
    cases=[
        # Swin's shifted-window mask: a 0-d fill into a [1, h, w, 1] slice
        Case("swin_mask_fill", (randn(1, 12, 12, 1), randn()), route="strided_gather",
             exact=True),
        Case("same_shape_vec4", (randn(3, 5, 8), randn(3, 5, 8)), route="strided_gather_vec4",
             exact=True),
        Case("same_shape_odd", (randn(3, 7), randn(3, 7)), exact=True),
        Case("broadcast_rows", (randn(6, 8), randn(8)), route="strided_gather_vec4", exact=True),
        Case("broadcast_columns", (randn(5, 7), randn(5, 1)), exact=True),
        Case("broadcast_middle", (randn(2, 3, 4, 5), randn(2, 1, 4, 1)), exact=True),
        Case("one_element_src", (randn(4, 3), randn(1, 1)), exact=True),
        Case("rank0", (randn(), randn()), exact=True),
        Case("empty_self", (randn(0, 3), randn(3)), exact=True),
        Case("empty_both", (randn(3, 0), randn(0)), exact=True),
        Case("rank8", (randn(2, 1, 3, 2, 1, 2, 3, 2), randn(3, 1, 1, 2, 1, 2)), exact=True),
        Case("int32", (randint(-9, 9, 4, 6, dtype="int32"), randint(-9, 9, 6, dtype="int32")),
             exact=True),
        Case("int64", (randint(-9, 9, 3, 5), randint(-9, 9, 3, 1)), exact=True),
        Case("bool_fill", (randint(0, 2, 3, 5, dtype="bool"), tensor(True, dtype="bool")),
             route="strided_gather_bytes", exact=True),
        Case("f16_broadcast", (randn(3, 5, dtype="float16"), randn(3, 1, dtype="float16")),
             route="strided_gather_halves", exact=True),
        Case("bool_rows", (randint(0, 2, 5, 8, dtype="bool"), randint(0, 2, 8, dtype="bool")),
             exact=True),
        Case("ieee_specials", (randn(3, 6), tensor([NAN, -0.0, INF, -INF, 1e-45, -NAN])),
             exact=True),
        Case("non_blocking", (randn(2, 4), randn(4)), kwargs={"non_blocking": True}, exact=True),
        # 17 x 13 x 11 elements over 3 workgroups
        Case("multi_workgroup", (randn(17, 13, 11), randn(13, 1)), exact=True),
        Case("resize", (randn(4, 6, 8), randn(6, 1)), resize={"self": (2, 6, 8)}, exact=True),
        Case("resize_src", (randn(4, 6, 8), randn(6, 8)), resize={"self": (4, 3, 8),
                                                                  "src": (3, 8)}, exact=True),
        Case("rejects_mixed_dtypes", (randn(2, 3), randint(-5, 5, 3, dtype="int32")),
             raises="src has a different dtype from self (got int32, expected float32 (a "
                    "converting copy is not implemented))"),
        Case("rejects_clashing_dim", (randn(2, 3), randn(2, 4)),
             raises="src does not broadcast to self's shape (got [2, 4], expected at most 2 "
                    "dims, each 1 or equal to its dim of [2, 3] (right-aligned))"),
        Case("rejects_one_in_self", (randn(2, 1), randn(2, 3)),
             raises="src does not broadcast to self's shape (got [2, 3], expected at most 2 "
                    "dims, each 1 or equal to its dim of [2, 1] (right-aligned))"),
        Case("rejects_more_dims", (randn(3), randn(1, 3)),
             raises="src does not broadcast to self's shape (got [1, 3], expected at most 1 "
                    "dims, each 1 or equal to its dim of [3] (right-aligned))"),
        Case("rejects_empty_src", (randn(3), randn(0)),
             raises="src does not broadcast to self's shape (got [0], expected at most 1 dims, "
                    "each 1 or equal to its dim of [3] (right-aligned))"),
        Case("rank9", (randn(1, 1, 1, 1, 1, 1, 1, 1, 2), randn(2)),
             raises="self has the wrong rank (got 9, expected 0..8)"),
    ],
)

OPS = [PERMUTE_COPY, PERMUTE, EXPAND_COPY, REPEAT, AS_STRIDED_COPY, COPY]
