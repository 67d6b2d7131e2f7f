"""cat: out = torch.cat(tensors, dim) for any number of tensors, one dispatch per entry.

Each entry's dispatch copies its elements into its slab of the output: seen as
[outer, size_k, inner] around the cat dim, entry k lands at offset sum(sizes[:k]) of
out's [outer, sum(sizes), inner]. The kernels move units of the largest size that every
slab row holds whole: 16 bytes (the vec4 route), else 4 bytes (one u32 per invocation),
else (bool or float16 rows of an odd byte length) single bytes: cat_copy_bytes, where an
invocation owns an output word and rewrites the entry's bytes in it. float32 and int32
are 4 bytes an element, float16 2, bool 1; the kernels count units (bytes for
cat_copy_bytes), whatever the elements.

torch's legacy rule: a 1-D tensor with no elements (shape [0]) is skipped, whatever the
other tensors' rank; the dim wraps against the first tensor that is not skipped.
"""

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard, Int,
                              Kernel, Op, Output, Route, TensorList, u32)
from codegen.graph.inputs import randint, randn, tensor

DTYPES = (F32, F16, I32, BOOL)
CAT = Kernel("cat_copy", helpers=("../common/each_element.wgsl",))
CAT_VEC4 = CAT.variant("cat_copy_vec4")  # the same body over vec4<u32> bindings
CAT_BYTES = Kernel("cat_copy_bytes")

NAN, INF = float("nan"), float("inf")


def bools(*shape: int):
    return randint(0, 2, *shape, dtype="bool")


def h(*shape: int):
    return randn(*shape, dtype="float16")


def cat_dispatch(kernel: Kernel, elem: str, when: str,
                 count: str = "tensors[i].numel * elem_bytes // unit") -> Dispatch:
    """One dispatch per entry, moving one unit per invocation over `count` invocations
    (the bytes kernel counts bytes and scans the output's words)."""
    return Dispatch(
        params={
            "inner": u32("inner * elem_bytes // unit"),
            "in_len": u32("sizes[i]"),
            "out_len": u32("out.dims[d]"),
            "offset": u32("sum(sizes[:i])"),
            "num_elements": u32("out.numel * elem_bytes if unit == 1 else "
                                "tensors[i].numel * elem_bytes // unit"),
        },
        bindings=[Bind("input", "tensors", elem=elem),
                  Bind("output", "out", write=True, elem=elem)],
        routes=[Route(kernel, Elementwise(count))],
        name=kernel.name, when=when, foreach="tensors")


OPS = [Op(
    name="cat",
    targets=["aten.cat.default"],
    args=[TensorList("tensors", DTYPES, max_items=None), Int("dim", default=0),
          Output("out", DTYPES)],
    let={
        # torch's legacy rule: 1-D tensors without elements take no part
        "skipped": "[k for k in range(len(tensors)) if tensors[k].rank == 1 and "
                   "tensors[k].numel == 0]",
        "kept": "[k for k in range(len(tensors)) if k not in skipped]",
        "ref": "kept[0] if len(kept) > 0 else 0",
        "rank": "tensors[ref].rank if len(tensors) > 0 else 1",
        "d": "dim + rank if dim < 0 else dim",
        "sizes": "[tensors[k].dims[d] if k in kept and d >= 0 and d < tensors[k].rank else 0 "
                 "for k in range(len(tensors))]",
        "mismatched": "[k for k in kept if tensors[k].rank != rank or "
                      "tensors[k].dims[:d] + tensors[k].dims[d + 1:] != "
                      "tensors[ref].dims[:d] + tensors[ref].dims[d + 1:]]",
        "mistyped": "[k for k in kept if tensors[k].dtype != out.dtype]",
        "inner": "prod(tensors[ref].dims[d + 1:]) if len(tensors) > 0 else 1",
        "elem_bytes": "1 if out.dtype == 'bool' else (2 if out.dtype == 'float16' else 4)",
        # the bytes moved at a time: the largest of 16, 4, 1 that divides a slab row
        "unit": "16 if inner * elem_bytes % 16 == 0 else (4 if inner * elem_bytes % 4 == 0 "
                "else 1)",
    },
    guards=[
        Guard("len(tensors) > 0", "tensors", "is empty", got="len(tensors)",
              expected="at least one tensor"),
        Guard("rank > 0", "tensors", "holds a zero-dimensional tensor", got="tensors[ref].dims",
              expected="tensors of rank >= 1"),
        Guard("d >= 0 and d < rank", "dim", "is out of range", got="dim",
              expected="{-rank}..{rank - 1}"),
        Guard("len(mismatched) == 0", "tensors",
              "holds a tensor whose dims differ from the first outside the cat dim",
              got="tensors[mismatched[0]].dims",
              expected="rank {rank} and {tensors[ref].dims} outside dim {d}"),
        Guard("len(mistyped) == 0", "tensors", "holds a tensor of another dtype than the output",
              got="tensors[mistyped[0]].dtype", expected="{out.dtype} (no type promotion)"),
    ],
    shapes={"out": "replace_at(tensors[ref].dims, d, sum(sizes))"},
    resize="dynamic",
    dispatches=[cat_dispatch(CAT_VEC4, "vec4<u32>", when="unit == 16"),
                cat_dispatch(CAT, "u32", when="unit == 4"),
                # every output word, for each entry that has elements
                cat_dispatch(CAT_BYTES, "u32", when="unit == 1",
                             count="ceil_div(out.numel * elem_bytes, 4) if tensors[i].numel > 0 "
                                   "else 0")],
    cases=[
        Case("channels_vec4", ([randn(2, 3, 4, 5), randn(2, 5, 4, 5), randn(2, 1, 4, 5)], 1),
             route="cat_copy_vec4", exact=True),
        Case("last_dim_odd", ([randn(3, 7), randn(3, 5)], -1), route="cat_copy", exact=True),
        Case("dim0_prime", ([randn(13, 3), randn(7, 3)], 0), exact=True),
        Case("negative_dim", ([randn(2, 3, 5), randn(2, 2, 5)], -2), exact=True),
        Case("single_tensor", ([randn(4, 6)], 1), exact=True),
        Case("nine_tensors_1d", ([randn(n) for n in (1, 2, 3, 5, 7, 11, 13, 4, 8)],), exact=True),
        Case("int32", ([randint(-9, 9, 2, 4, dtype="int32"), randint(-9, 9, 2, 3, dtype="int32")],
                       1), exact=True),
        Case("ieee_specials", ([tensor([[NAN, INF], [-INF, -0.0]]), tensor([[0.0, -NAN]])], 0),
             exact=True),
        Case("legacy_empty_skipped", ([randn(2, 3), randn(0), randn(2, 4), randn(0)], 1),
             exact=True),
        Case("all_legacy_empty", ([randn(0), randn(0)],), exact=True),
        Case("zero_size_entry", ([randn(2, 0, 3), randn(2, 4, 3)], 1), exact=True),
        Case("rank1", ([randn(5), randn(3)], -1), exact=True),
        # several workgroups per entry on both routes
        Case("multi_workgroup_vec4", ([randn(300, 8), randn(211, 8)], 0), exact=True),
        Case("multi_workgroup", ([randn(3, 701), randn(3, 311)], 1), exact=True),
        Case("resize", ([randn(2, 6, 4), randn(2, 3, 4)], 1),
             resize={"tensors": [(1, 5, 4), (1, 2, 4)]}, exact=True),
        Case("empty_list", ([],), raises="tensors is empty (got 0, expected at least one tensor)"),
        Case("zero_dim", ([randn(), randn()],),
             raises="tensors holds a zero-dimensional tensor (got [], expected tensors of "
                    "rank >= 1)"),
        Case("dim_out_of_range", ([randn(2, 3), randn(2, 3)], 2),
             raises="dim is out of range (got 2, expected -2..1)"),
        Case("dims_differ", ([randn(2, 3), randn(3, 3)], 1),
             raises="tensors holds a tensor whose dims differ from the first outside the cat "
                    "dim (got [3, 3], expected rank 2 and [2, 3] outside dim 1)"),
        Case("ranks_differ", ([randn(2, 3), randn(2)], 1),
             raises="tensors holds a tensor whose dims differ from the first outside the cat "
                    "dim (got [2], expected rank 2 and [2, 3] outside dim 1)"),
        Case("mixed_dtypes", ([randn(2, 3), randint(0, 5, 2, 3, dtype="int32")], 0),
             raises="tensors holds a tensor of another dtype than the output (got int32, "
                    "expected float32 (no type promotion))"),
        # bool: 16-byte units (inner 16), words (inner 4), bytes (odd rows)
        Case("bool_vec4", ([bools(2, 3, 16), bools(2, 1, 16)], 1), route="cat_copy_vec4",
             exact=True),
        Case("bool_words", ([bools(3, 2, 4), bools(3, 5, 4)], 1), route="cat_copy", exact=True),
        # a Hugging Face padding mask grown by one token: rows of 7 + 1 bytes
        Case("bool_last_dim", ([bools(2, 7), bools(2, 1)], -1), route="cat_copy_bytes",
             exact=True),
        Case("bool_dim0_odd", ([bools(3, 3), bools(2, 3), bools(5, 3)], 0), exact=True),
        Case("bool_nine_1d", ([bools(n) for n in (1, 2, 3, 5, 7, 11, 13, 4, 8)],), exact=True),
        Case("bool_zero_size_entry", ([bools(2, 0, 3), bools(2, 3, 3), bools(0)], 1),
             exact=True),
        # 3 x 1013 bytes: several workgroups per entry, words shared by two entries
        Case("bool_multi_workgroup", ([bools(3, 701), bools(3, 312)], 1), exact=True),
        Case("bool_resize", ([bools(2, 6, 3), bools(2, 3, 3)], 1),
             resize={"tensors": [(1, 5, 3), (1, 2, 3)]}, exact=True),
        Case("bool_and_float", ([tensor([True, False], dtype="bool"), randn(2)],),
             raises="tensors holds a tensor of another dtype than the output (got bool, "
                    "expected float32 (no type promotion))"),
        # float16: 16-byte units (rows of 8), words (rows of 2), bytes (odd rows: RoPE's
        # rotate-half of an odd head dim, a KV cache grown by one token)
        Case("f16_vec4", ([h(2, 3, 8), h(2, 1, 8)], 1), route="cat_copy_vec4", exact=True),
        Case("f16_words", ([h(3, 2, 2), h(3, 5, 2)], 1), route="cat_copy", exact=True),
        Case("f16_last_dim_odd", ([h(2, 7), h(2, 1), h(2, 3)], -1), route="cat_copy_bytes",
             exact=True),
        Case("f16_dim0", ([h(3, 3), h(2, 3)], 0), exact=True),
        Case("f16_specials", ([tensor([[NAN, 65504.0, 2.0 ** -24]], dtype="float16"),
                               tensor([[-0.0, -INF, 1.0]], dtype="float16")], 0), exact=True),
        Case("half_and_float", ([h(2), randn(2)],),
             raises="tensors holds a tensor of another dtype than the output (got float16, "
                    "expected float32 (no type promotion))"),
    ],
)]
