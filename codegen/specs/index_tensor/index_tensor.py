"""index.Tensor: advanced indexing self[i0, i1, ...] with int index tensors, torch's rules.

`indices` is a `Tensor?[]` of at most 4 entries (self's first dims): a None entry keeps
its dim whole; the index tensors (int64 in torch, int32 on the GPU, rank 0..4) broadcast
together to a shape B. When they sit on adjacent dims, B replaces those dims in place;
when a None separates them, B comes first and the kept dims follow (torch's rule):
    self [2, 3, 4, 5], indices [None, i, j]    -> [2] + B + [5]
    self [2, 3, 4, 5], indices [i, None, j]    -> B + [3, 5]
Each output element decomposes its coordinates once (8 right-aligned dims): kept dims
add their input stride, B's coordinates give each index tensor's offset (0 along its
broadcast dims). Negative indices count from the end; out-of-range ones are clamped
(torch raises; a GPU kernel cannot: pass valid indices). float32 and int32 move as 32-bit
words, four at a time when self's last dim is kept and a multiple of 4; bool (one byte per
element) and float16 (two bytes) have a kernel of their own, in which an invocation owns
one output word and gathers its four bools or two halves (one aligned input word under
the same condition).
"""

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard,
                              Kernel, Op, Output, Override, Param, Route, Tensor, TensorList, u32)
from codegen.graph.inputs import randint, randn, tensor

DTYPES = (F32, F16, I32, BOOL)
MAX_ENTRIES = 4  # index tensors bind as idx0..idx3
MAX_RANK = 8
# LANES 32-bit words per invocation, from one body
INDEX = Kernel("index_tensor", helpers=("../common/each_element.wgsl",), consts={"LANES": "1u"})
INDEX_VEC4 = INDEX.variant("index_tensor_vec4", consts={"LANES": "4u"})
INDEX_BYTES = Kernel("index_tensor_bytes", overrides={"ALIGNED": Override("bool", False)},
                     helpers=("../copy/packed_words.wgsl",), consts={"PER_WORD": "4u"})
INDEX_HALVES = INDEX_BYTES.variant("index_tensor_halves", consts={"PER_WORD": "2u"})
SMALL = "self.dtype == 'bool' or self.dtype == 'float16'"  # elements smaller than a word


def entry_dims(k: int) -> str:
    return f"(indices[{k}].dims if len(indices) > {k} and indices[{k}].present else [])"


# the index tensors' broadcast shape, entry by entry (an entry that does not broadcast is
# left out here and rejected by a guard)
BROADCAST_LETS = {"b0": entry_dims(0)}
for _k in range(1, MAX_ENTRIES):
    _prev, _dims = f"b{_k - 1}", entry_dims(_k)
    BROADCAST_LETS[f"b{_k}"] = f"broadcast_shape({_prev}, {_dims}) if broadcasts({_prev}, {_dims}) " \
                               f"else {_prev}"



def bools(*shape: int):
    return randint(0, 2, *shape, dtype="bool")


ZEROS_BEFORE, ZEROS_AFTER = "[0 for k in rest[:at]]", "[0 for k in rest[at:]]"


def index_strides(k: int) -> str:
    """Entry k's element stride along each output dim (0 outside B and where it broadcasts)."""
    return (f"(right_align({ZEROS_BEFORE} + broadcast_strides(indices[{k}].dims, B) + "
            f"{ZEROS_AFTER}, {MAX_RANK}, 0) if {k} in present else "
            f"[0 for k in range({MAX_RANK})])")


def index_dispatch(kernel: Kernel, elem: str, lanes: int, when: str, routes=()) -> Dispatch:
    return Dispatch(
        params={
            "out_dims": Param("array<vec4<u32>, 2>", f"right_align(out_dims, {MAX_RANK}, 1)"),
            # the input stride of each output dim that is a kept dim of self (0 on B's)
            "kept_strides": Param("array<vec4<u32>, 2>",
                                  f"right_align([strides[k] for k in rest[:at]] + "
                                  f"[0 for k in B] + [strides[k] for k in rest[at:]], "
                                  f"{MAX_RANK}, 0)"),
            # entry j's strides along the output dims: elements [2j, 2j + 1]
            "index_strides": Param("array<vec4<u32>, 8>", " + ".join(
                index_strides(k) for k in range(MAX_ENTRIES))),
            "dim_sizes": Param("vec4<u32>", "[self.dims[k] if k < self.rank else 1 "
                                            "for k in range(4)]"),
            "dim_strides": Param("vec4<u32>", "[strides[k] if k < self.rank else 0 "
                                              "for k in range(4)]"),
            "present": Param("vec4<u32>", "[1 if k in present else 0 for k in range(4)]"),
            "num_elements": u32(f"out.numel // {lanes}"),
        },
        bindings=[Bind("input", "self", elem=elem), *[
            Bind(f"idx{k}", "indices", item=k) for k in range(MAX_ENTRIES)],
            Bind("output", "out", write=True, elem=elem)],
        routes=[*routes, Route(kernel, Elementwise(f"out.numel // {lanes}"))],
        helpers=["index_source.wgsl"], name=kernel.name, when=when)


VEC4 = "self.rank - 1 not in present and self.dims[-1] % 4 == 0"

OPS = [Op(
    name="index_tensor",
    targets=["aten.index.Tensor"],
    args=[Tensor("self", DTYPES, rank=(1, MAX_RANK)),
          TensorList("indices", dtypes=(I32,), rank=(0, 4), optional_items=True,
                     max_items=MAX_ENTRIES),
          Output("out", DTYPES)],
    let={
        "present": "[k for k in range(len(indices)) if indices[k].present]",
        **BROADCAST_LETS,
        "B": f"b{MAX_ENTRIES - 1}",
        "unbroadcast": "[k for k in present if indices[k].rank > len(B) or "
                       "not broadcasts(indices[k].dims, B)]",
        "adjacent": "len(present) == 0 or present[-1] - present[0] + 1 == len(present)",
        "at": "present[0] if len(present) > 0 and adjacent else 0",  # where B goes
        "rest": "[k for k in range(self.rank) if k not in present]",  # the kept dims
        "strides": "contiguous_strides(self.dims)",
        "out_dims": "[self.dims[k] for k in rest[:at]] + B + [self.dims[k] for k in rest[at:]]",
    },
    guards=[
        Guard("len(present) > 0", "indices", "holds no index tensor", got="len(indices)",
              expected="at least one non-None entry"),
        Guard("len(indices) <= self.rank", "indices", "has more entries than self has dims",
              got="len(indices)", expected="at most {self.rank}"),
        Guard("len(unbroadcast) == 0", "indices", "holds index tensors whose shapes do not "
              "broadcast", got="indices[unbroadcast[0]].dims",
              expected="shapes that broadcast to {B}"),
        Guard(f"len(out_dims) <= {MAX_RANK}", "indices", "give the result too many dims",
              got="len(out_dims)", expected=f"at most {MAX_RANK}"),
    ],
    shapes={"out": "out_dims"},
    resize="dynamic",
    dispatches=[index_dispatch(INDEX_VEC4, "vec4<u32>", 4, f"not ({SMALL}) and {VEC4}"),
                index_dispatch(INDEX, "u32", 1, f"{SMALL} or not ({VEC4})", routes=[
                    Route(INDEX_BYTES, Elementwise("ceil_div(out.numel, 4)"),
                          when="self.dtype == 'bool'", overrides={"ALIGNED": VEC4}),
                    Route(INDEX_HALVES, Elementwise("ceil_div(out.numel, 2)"),
                          when="self.dtype == 'float16'", overrides={"ALIGNED": VEC4})])],
    cases=[
        Case("gather_rows", (randn(6, 8), [randint(0, 6, 4)]), route="index_tensor_vec4",
             exact=True),
        Case("middle_dim", (randn(2, 5, 3), [None, randint(0, 5, 4)]), route="index_tensor",
             exact=True),
        Case("last_dim", (randn(2, 3, 7), [None, None, randint(0, 7, 5)]), exact=True),
        Case("two_adjacent", (randn(4, 5, 6), [randint(0, 4, 3), randint(0, 5, 3)]), exact=True),
        Case("three_of_rank4", (randn(2, 3, 4, 5), [None, randint(0, 3, 6), randint(0, 4, 6),
                                                    randint(0, 5, 6)]), exact=True),
        Case("negative_indices", (randn(5, 4), [tensor([-1, 0, -5, 2], dtype="int64")]),
             exact=True),
        # ExecuTorch Vulkan's own tests index with 2-D and 3-D index tensors
        Case("index_2d", (randn(3, 4), [randint(0, 3, 2, 2)]), exact=True),
        Case("index_3d_middle", (randn(2, 5, 3), [None, randint(0, 5, 2, 3, 2)]), exact=True),
        Case("broadcast_pair", (randn(4, 5, 8), [randint(0, 4, 3, 1), randint(0, 5, 1, 2)]),
             route="index_tensor_vec4", exact=True),
        Case("non_adjacent", (randn(3, 4, 5), [randint(0, 3, 2), None, randint(0, 5, 2)]),
             exact=True),
        Case("non_adjacent_broadcast", (randn(3, 4, 5, 4), [randint(0, 3, 2, 1), None,
                                                            randint(0, 5, 3)]), exact=True),
        Case("scalar_index", (randn(5, 6), [tensor(2, dtype="int64")]), exact=True),
        Case("rank6", (randn(2, 3, 2, 2, 3, 4), [None, randint(0, 3, 5)]), exact=True),
        Case("int32", (randint(-50, 50, 4, 3, dtype="int32"), [randint(0, 4, 5)]), exact=True),
        # bool: an invocation owns an output word (one aligned input word when rows are words)
        Case("f16_rows", (randn(6, 8, dtype="float16"), [randint(0, 6, 5)]),
             route="index_tensor_halves", exact=True),
        Case("f16_middle_dim", (randn(2, 5, 3, dtype="float16"), [None, randint(0, 5, 4)]),
             exact=True),
        Case("bool_rows", (bools(6, 8), [randint(0, 6, 5)]), route="index_tensor_bytes",
             exact=True),
        Case("bool_middle_dim", (bools(2, 5, 3), [None, randint(0, 5, 4)]),
             route="index_tensor_bytes", exact=True),
        Case("bool_non_adjacent", (bools(3, 4, 5), [randint(0, 3, 2), None, randint(0, 5, 2)]),
             exact=True),
        Case("bool_negative_indices", (bools(5, 3), [tensor([-1, 0, -5, 2], dtype="int64")]),
             exact=True),
        # 3 x 37 x 11 bytes out: 306 words over 2 workgroups
        Case("bool_multi_workgroup", (bools(40, 11), [randint(0, 40, 3, 37)]), exact=True),
        Case("bool_resize", (bools(6, 5), [randint(0, 4, 3)]), resize={"self": (4, 5)},
             exact=True),
        Case("ieee_specials", (tensor([[float("nan"), -0.0], [float("inf"), -float("inf")]]),
                               [tensor([1, 0, 1], dtype="int64")]), exact=True),
        Case("multi_workgroup", (randn(40, 9), [randint(0, 40, 3, 37)]), exact=True),
        Case("resize", (randn(6, 8), [randint(0, 4, 3)]), resize={"self": (4, 8)}, exact=True),
        Case("resize_indices", (randn(6, 5), [randint(0, 6, 7)]), resize={"indices": [(3,)]},
             exact=True),
        Case("no_index", (randn(3, 4), [None]),
             raises="indices holds no index tensor (got 1, expected at least one non-None entry)"),
        Case("too_many_entries", (randn(3, 4), [randint(0, 3, 2), None, None]),
             raises="indices has more entries than self has dims (got 3, expected at most 2)"),
        Case("not_broadcastable", (randn(3, 4), [randint(0, 3, 2), randint(0, 4, 3)]),
             raises="indices holds index tensors whose shapes do not broadcast (got [3], "
                    "expected shapes that broadcast to [2])"),
        Case("too_many_dims", (randn(2, 2, 2, 2, 2, 2, 2, 3), [randint(0, 2, 1, 1, 1, 2)]),
             raises="indices give the result too many dims (got 11, expected at most 8)"),
        Case("index_rank5", (randn(3, 4), [randint(0, 3, 1, 1, 1, 1, 2)]),
             raises="indices has the wrong rank (got 5, expected 0..4)"),
        Case("bool_mask", (randn(3, 4), [tensor([True, False, True], dtype="bool")]),
             raises="indices has an unsupported dtype (got bool, expected int32)"),
    ],
)]
