"""slice_copy and split_with_sizes_copy: one gather kernel along one dim.

The kernel sees the tensor as [outer, D, inner] around the sliced dim, so it serves
every rank. split_with_sizes_copy runs it once per output (a step-1 slice at the
running offset). It moves 32-bit words: a float32 or int32 element, or two halves or four
bools when the inner block is whole words (inner counts words then); other float16 and
bool slices take slice_copy_bytes, where an invocation owns an output word and gathers
its four bytes (inner and the element counts count bytes then).
"""

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Dispatch, Elementwise, Guard, Int,
                              IntList, Kernel, Op, Output, OutputList, Route, Tensor, u32)
from codegen.graph.inputs import SymInt, randint, randn, tensor

INT64_MAX = 2**63 - 1
SLICE = Kernel("slice_copy", helpers=("../common/each_element.wgsl",))
SLICE_BYTES = Kernel("slice_copy_bytes", helpers=("../copy/packed_words.wgsl",),
                     consts={"PER_WORD": "4u", "ALIGNED": "false"})
DTYPES = (F32, F16, I32, BOOL)

# the sliced dim, normalized (range checked by DIM_IN_RANGE), and its length
DIM_LETS = {
    "d": "dim + self.rank if dim < 0 else dim",
    "D": "self.dims[d] if d >= 0 and d < self.rank else 0",
    "inner": "prod(self.dims[d + 1:])",
    "elem_bytes": "1 if self.dtype == 'bool' else (2 if self.dtype == 'float16' else 4)",
    "bytes": "inner * elem_bytes % 4 != 0",  # rows of bools or halves not in whole words
    "unit": "1 if bytes else 4",  # bytes per unit the kernel moves
}
DIM_IN_RANGE = Guard("d >= 0 and d < self.rank", "dim", "is out of range", got="dim",
                     expected="a dim of a rank-{self.rank} tensor")


def slice_params(start: str, step: str, out_len: str, numel: str) -> dict:
    return {
        "inner": u32("inner * elem_bytes // unit"),
        "in_len": u32("D"),
        "out_len": u32(out_len),
        "start": u32(start),
        "step": u32(step),
        "num_elements": u32(f"{numel} * elem_bytes // unit"),
    }


def bools(*shape: int):
    return randint(0, 2, *shape, dtype="bool")


def h(*shape: int):
    return randn(*shape, dtype="float16")


SLICE_COPY = Op(
    name="slice_copy",
    targets=["aten.slice_copy.Tensor"],
    args=[Tensor("self", DTYPES), Int("dim", default=0),
          Int("start", symbolic=True, optional=True, default=0),
          Int("end", symbolic=True, optional=True, default=INT64_MAX),
          Int("step", symbolic=True, default=1), Output("out", DTYPES)],
    let={
        **DIM_LETS,
        # ATen: negative bounds count from the end, then both clamp into [0, D], end >= start
        "s0": "start + D if start < 0 else start",
        "s": "0 if s0 < 0 else min(s0, D)",
        "e0": "end + D if end < 0 else end",
        "e": "s if e0 < s else min(e0, D)",
        "n": "ceil_div(e - s, max(step, 1))",
    },
    guards=[
        DIM_IN_RANGE,
        Guard("step >= 1", "step", "is not positive", got="step", expected="a step >= 1"),
    ],
    shapes={"out": "replace_at(self.dims, d, n)"},
    resize="dynamic",
    dispatches=[Dispatch(
        params=slice_params("s", "step", "n", "out.numel"),
        bindings=[Bind("input", "self", elem="u32"), Bind("output", "out", write=True, elem="u32")],
        routes=[Route(SLICE_BYTES, Elementwise("ceil_div(out.numel * elem_bytes, 4)"),
                      when="bytes"),
                Route(SLICE, Elementwise("out.numel * elem_bytes // unit"))],
    )],
    cases=[
        Case("channels", (randn(2, 8, 3, 3), 1, 2, 6), route="slice_copy", exact=True),
        Case("step_2", (randn(4, 10), 1, 1, 9, 2), exact=True),
        Case("negative_dim_and_start", (randn(3, 5, 6), -1, -4, None), exact=True),
        Case("null_start_end", (randn(6, 4), 0, None, None), exact=True),
        Case("end_int64_max", (randn(6, 4), 0, 2, INT64_MAX), exact=True),
        Case("null_dim", (randn(6, 4), None, 1, 3), exact=True),
        Case("empty_result", (randn(5, 4), 0, 4, 2), exact=True),
        Case("int32", (tensor([[1, 2, 3], [4, 5, 6]], dtype="int32"), 1, 1, 3), exact=True),
        Case("ieee_specials", (tensor([[float("nan"), -0.0, float("inf"), -float("inf"), 1.0]]),
                               1, 0, 4), exact=True),
        # bool: whole words when the inner block is (inner counts words), else bytes
        Case("bool_words", (bools(2, 6, 8), 1, 1, 5), route="slice_copy", exact=True),
        # Hugging Face's causal mask cut to the key length: [B, 1, S, 9][..., :7]
        Case("bool_last_dim", (bools(2, 1, 5, 9), -1, 0, 7), route="slice_copy_bytes",
             exact=True),
        Case("bool_step_3", (bools(3, 11, 3), 1, 1, None, 3), exact=True),
        Case("bool_empty_result", (bools(5, 3), 0, 4, 2), exact=True),
        # 37 x 101 bytes out: 935 words over 4 workgroups, rows crossing words
        Case("bool_multi_workgroup", (bools(37, 103), 1, 2, None), exact=True),
        Case("bool_resize", (bools(4, 6, 5), 1, 1, 5), resize={"self": (2, 6, 3)}, exact=True),
        # regression: a Double-typed start (the graph serializer may emit one)
        Case("double_start", (randn(3, 8), 1, 2.0, 7), exact=True),
        Case("symint_bounds", (randn(2, 9), 1, SymInt(1), SymInt(8)), exact=True),
        Case("resize_symint_end", (randn(2, 9), 1, SymInt(1), SymInt(8)), resize={"end": 5},
             exact=True),
        Case("resize_input", (randn(4, 6, 5), 1, 1, 5), resize={"self": (2, 6, 3)}, exact=True),
        # 65536 * 256 + 5 elements out, one per invocation: more workgroups than one grid
        # dimension holds (the grid spills into y)
        Case("spill_2d", (randint(-1000, 1000, 65536 * 256 + 9, dtype="int32"), 0, 2, None),
             exact=True),
        Case("fractional_start", (randn(3, 8), 1, 1.5, 7),
             raises="start is not an integral number (got 1.5, expected an integer in int64 range)"),
        Case("nan_end", (randn(3, 8), 1, 0, float("nan")),
             raises="end is not an integral number (got nan, expected an integer in int64 range)"),
        Case("dim_out_of_range", (randn(3, 8), 2, 0, 1),
             raises="dim is out of range (got 2, expected a dim of a rank-2 tensor)"),
        Case("zero_step", (randn(3, 8), 1, 0, 4, 0),
             raises="step is not positive (got 0, expected a step >= 1)"),
        # float16: words (two halves) when the inner block is, else bytes (RoPE's halves of a
        # head, the last token of a sequence)
        Case("f16_words", (h(2, 6, 4), 1, 1, 5), route="slice_copy", exact=True),
        Case("f16_last_dim", (h(2, 3, 9), -1, 4, 9), route="slice_copy_bytes", exact=True),
        Case("f16_step_2", (h(3, 11, 3), 1, 1, None, 2), exact=True),
    ],
)

SPLIT_WITH_SIZES_COPY = Op(
    name="split_with_sizes_copy",
    targets=["aten.split_with_sizes_copy.default"],
    args=[Tensor("self", DTYPES), IntList("split_sizes"), Int("dim", default=0),
          OutputList("out", Output("chunk", DTYPES), count="len(split_sizes)")],
    let=DIM_LETS,
    guards=[
        DIM_IN_RANGE,
        Guard("len(split_sizes) == 0 or min(split_sizes) >= 0", "split_sizes",
              "holds a negative size", got="split_sizes", expected="sizes >= 0"),
        Guard("sum(split_sizes) == D", "split_sizes", "do not add up to the split dim",
              got="split_sizes", expected="sizes summing to {D}"),
    ],
    shapes={"chunk": "replace_at(self.dims, d, split_sizes[i])"},
    resize="dynamic",
    dispatches=[Dispatch(
        params=slice_params("sum(split_sizes[:i])", "1", "split_sizes[i]", "chunk.numel"),
        bindings=[Bind("input", "self", elem="u32"),
                  Bind("output", "chunk", write=True, elem="u32")],
        routes=[Route(kernel, Elementwise(count))],
        name=kernel.name, when=when, foreach="out",
    ) for kernel, count, when in ((SLICE, "chunk.numel * elem_bytes // unit", "not bytes"),
                                  (SLICE_BYTES, "ceil_div(chunk.numel * elem_bytes, 4)",
                                   "bytes"))],
    cases=[
        Case("channels_3_way", (randn(1, 9, 4, 4), [2, 3, 4], 1), route="slice_copy", exact=True),
        Case("dim0", (randn(6, 5), [1, 5]), exact=True),
        Case("last_dim", (randn(2, 3, 10), [4, 4, 2], -1), exact=True),
        Case("zero_size_chunk", (randn(4, 6), [3, 0, 3], 1), exact=True),
        Case("yolo_detect_head", (randn(1, 84, 20), [4, 80], 1), exact=True),
        Case("bool_words", (bools(2, 6, 4), [2, 4], 1), route="slice_copy", exact=True),
        Case("bool_bytes", (bools(3, 10), [3, 0, 7], -1), route="slice_copy_bytes", exact=True),
        Case("bool_resize", (bools(2, 6, 5), [2, 4], 1), resize={"self": (1, 6, 3)}, exact=True),
        Case("resize", (randn(2, 6, 5), [2, 4], 1), resize={"self": (1, 6, 3)}, exact=True),
        Case("sizes_do_not_add_up", (randn(4, 6), [2, 2], 1),
             raises="split_sizes do not add up to the split dim (got [2, 2], expected sizes "
                    "summing to 6)"),
        Case("negative_size", (randn(4, 6), [7, -1], 1),
             raises="split_sizes holds a negative size (got [7, -1], expected sizes >= 0)"),
        Case("dim_out_of_range", (randn(4, 6), [2, 2], -3),
             raises="dim is out of range (got -3, expected a dim of a rank-2 tensor)"),
        Case("f16_words", (h(1, 9, 4, 4), [2, 3, 4], 1), route="slice_copy", exact=True),
        Case("f16_bytes", (h(3, 11), [4, 0, 7], -1), route="slice_copy_bytes", exact=True),
    ],
)

OPS = [SLICE_COPY, SPLIT_WITH_SIZES_COPY]
