"""Copy-like ops: reshape/alias/clone/squeeze/unsqueeze (one flat buffer copy, nothing
when the output shares the input's buffer; float32, float16, int32 and bool, whose graph
buffers hold one byte per element) and dtype conversion between float32, float16, int32
and bool (by value, a flat copy when the dtype does not change).

Contiguous layouts only: a dim_order other than the default fails loud.
"""

from dataclasses import replace

from codegen.language import (BOOL, F16, F32, I32, Bind, Case, Copy, Device, Dispatch,
                              Elementwise, Guard, Ignored, Int, IntList, Kernel, Layout,
                              MemoryFormat, Op, Output, Override, Route, ScalarType, Tensor, u32)
from codegen.graph.inputs import SymInt, randint, randn, tensor, torch_constant, torch_dtype

FLAT_DTYPES = (F32, F16, I32, BOOL)  # a flat copy moves the bytes, whatever they hold
CONVERT = Kernel("convert", overrides={"IN_KIND": Override("u32", 0),
                                       "OUT_KIND": Override("u32", 0)},
                 helpers=("../common/half_bits.wgsl",))


def kind(t: str) -> str:
    """convert.wgsl's KIND of tensor argument `t`, from its dtype."""
    return (f"0 if {t}.dtype == 'float32' else (1 if {t}.dtype == 'int32' else "
            f"(3 if {t}.dtype == 'float16' else 2))")


def h(*shape: int):
    return randn(*shape, dtype="float16")


# arguments that cannot change the values: a copy is a copy, blocking or not, and
# delegate buffers are never pinned host memory
NON_BLOCKING = Ignored("non_blocking", accepts=(False, True))
PIN_MEMORY = Ignored("pin_memory", accepts=(None, False))

# bool tensors are one byte per element in graph buffers, float16 two (the copy rounds up
# to whole 16-byte units, which every buffer has)
FLAT_COPY = Copy(src="self", dst="out", nbytes="(1 if out.dtype == 'bool' else (2 if "
                                                "out.dtype == 'float16' else 4)) * out.numel")
NAN, INF = float("nan"), float("inf")


def bools(*shape: int):
    return randint(0, 2, *shape, dtype="bool")


CONTIGUOUS = Guard("len(dim_order) == 0 or dim_order == range(self.rank)", "dim_order",
                   "is not the contiguous order", got="dim_order",
                   expected="None or {range(self.rank)}")


def copy_op(name: str, target: str, args: list, cases: list[Case], guards=(), let=None,
            shape: str = "self.dims") -> Op:
    """An op whose output is its input's elements, in order, under a new shape."""
    return Op(
        name=name,
        targets=[target],
        args=[Tensor("self", FLAT_DTYPES), *args, Output("out", FLAT_DTYPES)],
        let=let or {},
        guards=list(guards),
        shapes={"out": shape},
        resize="dynamic",
        dispatches=[FLAT_COPY],
        cases=cases,
    )


def to_copy_op(name: str, target: str, args: list, cases: list[Case], guards=()) -> Op:
    """Same dtype: a flat copy; float32, int32, bool to another of them: a numeric
    conversion (never bits)."""
    return Op(
        name=name,
        targets=[target],
        args=[Tensor("self", FLAT_DTYPES), *args, Output("out", FLAT_DTYPES)],
        guards=list(guards),
        shapes={"out": "self.dims"},
        resize="dynamic",
        dispatches=[
            replace(FLAT_COPY, when="self.dtype == out.dtype"),
            Dispatch(
                params={"num_elements": u32("out.numel")},
                bindings=[Bind("input", "self", elem="u32"),
                          Bind("output", "out", write=True, elem="u32")],
                routes=[Route(CONVERT, Elementwise("ceil_div(out.numel, 4)"),
                              overrides={"IN_KIND": kind("self"), "OUT_KIND": kind("out")})],
                when="self.dtype != out.dtype",
            ),
        ],
        cases=cases,
    )


def common_copy_cases() -> list[Case]:
    return [
        Case("contiguous_4d", (randn(2, 3, 4, 5),), exact=True),
        Case("int32", (randint(-50, 50, 3, 7, dtype="int32"),), exact=True),
        Case("resize", (randn(4, 6),), resize={"self": (2, 5)}, exact=True),
        # 2 full workgroups of the copy kernel (1024 vec4s each) and a partial third whose
        # last vec4 is partial: a grid that assumed more vec4s per invocation than the
        # kernel copies would leave a tail
        Case("several_workgroups", (randn(4 * 2048 + 4 * 777 + 3),), exact=True),
        Case("bool", (tensor([[True, False, True], [False, False, True]], dtype="bool"),),
             exact=True),
        # 4099 bytes: the copy's last 16-byte unit is partial
        Case("bool_odd_length", (randint(0, 2, 4099, dtype="bool"),), exact=True),
        Case("bool_resize", (randint(0, 2, 5, 7, dtype="bool"),), resize={"self": (3, 5)}, exact=True),
        # 2 bytes an element: the last 16-byte unit partial
        Case("float16", (tensor([[1.0, -0.0, 65504.0], [2.0 ** -24, float("inf"),
                                                        float("nan")]], dtype="float16"),),
             exact=True),
        Case("float16_odd_length", (h(4099),), exact=True),
        Case("rejects_uint8", (randint(0, 9, 2, 3, dtype="uint8"),),
             raises="self has an unsupported dtype (got uint8, expected float32 or float16 or "
                    "int32 or bool)"),
    ]


VIEW_SHAPE = "infer_size(size, self.numel)"

OPS = [
    copy_op("view_copy", "aten.view_copy.default", [IntList("size")], [
        Case("flatten", (randn(2, 3, 4), [6, 4]), exact=True),
        Case("infer_dim", (randn(2, 3, 4), [-1, 12]), exact=True),
        Case("to_scalar", (randn(1, 1), []), exact=True),
        Case("int32", (randint(0, 9, 4, 4, dtype="int32"), [16]), exact=True),
        Case("bool", (randint(0, 2, 3, 1, 7, dtype="bool"), [7, 3]), exact=True),
        Case("bool_resize", (randint(0, 2, 6, 5, dtype="bool"), [-1]), resize={"self": (3, 5)},
             exact=True),
        Case("resize", (randn(4, 6), [-1, 3]), resize={"self": (2, 6)}, exact=True),
        # an LLM's [1, S, heads, head_dim]: S a SymInt (a ValueList of Int and SymInt in
        # the graph), a prefill of 6 tokens then a decode step of 1
        Case("symint_dim", (randn(1, 6, 8), [1, SymInt(6), 2, 4]),
             resize={"self": (1, 1, 8), "size": [1, 1, 2, 4]}, exact=True),
        Case("symint_dim_mismatch", (randn(1, 6, 8), [1, SymInt(5), 2, 4]),
             raises="size does not match the input's element count (got [1, 5, 2, 4], "
                    "expected sizes whose product is 48)"),
        Case("wrong_numel", (randn(2, 3), [4, 2]),
             raises="size does not match the input's element count (got [4, 2], expected "
                    "sizes whose product is 6)"),
        Case("two_holes", (randn(2, 3), [-1, -1]),
             raises="size does not match the input's element count (got [-1, -1], expected "
                    "sizes whose product is 6)"),
    ], guards=[Guard(f"prod({VIEW_SHAPE}) == self.numel and "
                     f"(len(size) == 0 or min({VIEW_SHAPE}) >= 0)", "size",
                     "does not match the input's element count", got="size",
                     expected="sizes whose product is {self.numel}")],
        shape=VIEW_SHAPE),
    copy_op("alias_copy", "aten.alias_copy.default", [], common_copy_cases()),
    copy_op("clone", "aten.clone.default", [MemoryFormat("memory_format")],
            common_copy_cases() + [
                Case("preserve_format", (randn(2, 3),),
                     kwargs={"memory_format": torch_constant("preserve_format")}, exact=True),
                Case("channels_last", (randn(1, 3, 2, 2),),
                     kwargs={"memory_format": torch_constant("channels_last")},
                     raises="memory_format is not supported (got channels_last, expected None "
                            "or contiguous_format or preserve_format)"),
            ]),
    copy_op("clone_dim_order", "dim_order_ops._clone_dim_order.default",
            [NON_BLOCKING, IntList("dim_order", optional=True)],
            common_copy_cases() + [
                Case("explicit_dim_order", (randn(2, 3, 4),), kwargs={"dim_order": [0, 1, 2]},
                     exact=True),
                Case("channels_last", (randn(1, 3, 4, 4),), kwargs={"dim_order": [0, 2, 3, 1]},
                     raises="dim_order is not the contiguous order (got [0, 2, 3, 1], expected "
                            "None or [0, 1, 2, 3])"),
            ], guards=[CONTIGUOUS]),
    to_copy_op("to_copy", "aten._to_copy.default",
               [ScalarType("dtype"), Layout("layout"), Device("device"), PIN_MEMORY, NON_BLOCKING,
                MemoryFormat("memory_format")], [
        Case("int_to_float", (tensor([1, 2, 3], dtype="int32"),),
             kwargs={"dtype": torch_dtype("float32")}, route="convert", exact=True),
        Case("int64_to_float", (randint(-1000, 1000, 4, 5),),
             kwargs={"dtype": torch_dtype("float32")}, exact=True),
        Case("float_to_int", (randn(3, 6),), kwargs={"dtype": torch_dtype("int32")},
             exact=True),
        Case("float_to_float", (randn(2, 5),), kwargs={"dtype": torch_dtype("float32")},
             exact=True),
        Case("resize", (randint(-9, 9, 4, 4, dtype="int32"),),
             kwargs={"dtype": torch_dtype("float32")}, resize={"self": (2, 3)}, exact=True),
        # Hugging Face's mask.to(dtype) and back
        Case("bool_to_float", (bools(3, 7),), kwargs={"dtype": torch_dtype("float32")},
             route="convert", exact=True),
        Case("bool_to_int32", (bools(5, 3),), kwargs={"dtype": torch_dtype("int32")}, exact=True),
        Case("bool_to_int64", (bools(2, 9),), kwargs={"dtype": torch_dtype("int64")}, exact=True),
        # non-zero is true: NaN and the smallest subnormal too, -0.0 not
        Case("float_to_bool", (tensor([[NAN, -NAN, INF, -INF, -0.0], [0.0, 1e-45, -1e-45, 0.5,
                                                                       -2.0]]),),
             kwargs={"dtype": torch_dtype("bool")}, route="convert", exact=True),
        Case("int_to_bool", (tensor([[0, 1, -1, 2147483647], [-2147483648, 0, 7, 0]],
                                    dtype="int32"),),
             kwargs={"dtype": torch_dtype("bool")}, exact=True),
        Case("int64_to_bool", (randint(-2, 3, 3, 5),), kwargs={"dtype": torch_dtype("bool")},
             exact=True),
        Case("bool_to_bool", (bools(3, 5),), kwargs={"dtype": torch_dtype("bool")}, exact=True),
        # 4099 elements: 1025 quads over 5 workgroups, the last quad partial
        Case("float_to_bool_multi_workgroup", (randint(-1, 2, 4099, dtype="float32"),),
             kwargs={"dtype": torch_dtype("bool")}, exact=True),
        Case("bool_to_float_multi_workgroup", (bools(4099),),
             kwargs={"dtype": torch_dtype("float32")}, exact=True),
        Case("bool_resize", (bools(4, 6),), kwargs={"dtype": torch_dtype("float32")},
             resize={"self": (3, 5)}, exact=True),
        Case("to_bool_resize", (randint(-1, 2, 4, 6, dtype="float32"),),
             kwargs={"dtype": torch_dtype("bool")}, resize={"self": (3, 5)}, exact=True),
        # float16 both ways, rounded to nearest even as torch rounds (past 65504: inf)
        Case("float_to_half", (tensor([[1.0, -0.0, 65519.0, 65520.0, -1e6, 1e-8, 3e-8, NAN],
                                       [1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, INF, -INF,
                                        6.1e-5, -2.0 ** -24, 0.1, 1e-30]]),),
             kwargs={"dtype": torch_dtype("float16")}, route="convert", exact=True),
        Case("half_to_float", (tensor([[1.0, -0.0, 65504.0, 2.0 ** -24, NAN, -INF]],
                                      dtype="float16"),),
             kwargs={"dtype": torch_dtype("float32")}, exact=True),
        Case("half_to_int", (tensor([1.5, -2.5, 65504.0, -0.9], dtype="float16"),),
             kwargs={"dtype": torch_dtype("int32")}, exact=True),
        Case("half_to_bool", (tensor([NAN, -0.0, 0.0, 2.0 ** -24, -1.0], dtype="float16"),),
             kwargs={"dtype": torch_dtype("bool")}, exact=True),
        # a Hugging Face mask in a float16 graph; 4099 elements: the last quad partial
        Case("bool_to_half", (bools(4099),), kwargs={"dtype": torch_dtype("float16")},
             exact=True),
        Case("int_to_half", (tensor([0, 1, -7, 65504, 65520, -100000], dtype="int32"),),
             kwargs={"dtype": torch_dtype("float16")}, exact=True),
        Case("half_to_half", (h(3, 5),), kwargs={"dtype": torch_dtype("float16")}, exact=True),
        Case("rejects_uint8", (randn(2, 3),), kwargs={"dtype": torch_dtype("uint8")},
             raises="dtype is not supported (got uint8, expected None or bool or float16 or "
                    "float32 or int32)"),
        Case("rejects_pinned", (randn(2, 3),), kwargs={"pin_memory": True},
             raises="pin_memory is not supported (got True, expected None or False)"),
    ]),
    to_copy_op("to_dim_order_copy", "dim_order_ops._to_dim_order_copy.default",
               [ScalarType("dtype"), Layout("layout"), Device("device"), PIN_MEMORY, NON_BLOCKING,
                IntList("dim_order", optional=True)], [
        Case("int_to_float", (tensor([1, 2, 3], dtype="int32"),),
             kwargs={"dtype": torch_dtype("float32")}, route="convert", exact=True),
        Case("float_to_int", (randn(2, 3, 4),),
             kwargs={"dtype": torch_dtype("int32"), "dim_order": [0, 1, 2]}, exact=True),
        Case("same_dtype", (randn(3, 3),), kwargs={"dtype": torch_dtype("float32")}, exact=True),
        Case("bool_to_float", (bools(2, 3, 5),), kwargs={"dtype": torch_dtype("float32")},
             route="convert", exact=True),
        Case("float_to_bool", (tensor([NAN, -0.0, 0.0, -INF, 3.0]),),
             kwargs={"dtype": torch_dtype("bool"), "dim_order": [0]}, exact=True),
        Case("channels_last", (randn(1, 3, 2, 2),),
             kwargs={"dtype": torch_dtype("float32"), "dim_order": [0, 2, 3, 1]},
             raises="dim_order is not the contiguous order (got [0, 2, 3, 1], expected "
                    "None or [0, 1, 2, 3])"),
    ], guards=[CONTIGUOUS]),
]


# --- squeeze / unsqueeze: the elements in order under a shape with 1-sized dims removed or
# added: flat copies of any dtype in FLAT_DTYPES ------------------------------------------

def squeeze_lets(dims: str) -> dict:
    """`dims` (an int-list expression) wrapped as torch does, against max(rank, 1): a 0-d
    tensor takes dim 0 or -1."""
    return {
        "wrap": "max(self.rank, 1)",
        "outside": f"[x for x in {dims} if x < -wrap or x >= wrap]",
        "squeezed": f"[x + wrap if x < 0 else x for x in {dims}]",
        "repeated": "[squeezed[k] for k in range(len(squeezed)) if squeezed[k] in squeezed[:k]]",
    }


def squeeze_guards(arg: str) -> list[Guard]:
    return [Guard("len(outside) == 0", arg, "is out of range", got=arg,
                  expected="dims in {-wrap}..{wrap - 1}"),
            Guard("len(repeated) == 0", arg, "names a dim twice", got=arg,
                  expected="distinct dims")]


SQUEEZE_SHAPE = ("[self.dims[k] for k in range(self.rank) "
                 "if not (k in squeezed and self.dims[k] == 1)]")

OPS += [
    copy_op("squeeze_copy_dims", "aten.squeeze_copy.dims", [IntList("dim")], [
        Case("middle_and_last", (randn(3, 1, 5, 1), [1, 3]), exact=True),
        Case("negative_dims", (randn(1, 7, 1), [-1, -3]), exact=True),
        Case("not_one_is_kept", (randn(2, 1, 3), [0, 1]), exact=True),
        Case("empty_list", (randn(1, 3), []), exact=True),
        Case("rank0", (randn(), [0]), exact=True),
        Case("int32", (randint(-5, 5, 1, 4, 1, dtype="int32"), [0, 2]), exact=True),
        # an attention mask's [B, 1, S, S] squeezed to [B, S, S]: one byte per element
        Case("bool_mask", (randint(0, 2, 2, 1, 5, 5, dtype="bool"), [1]), exact=True),
        Case("resize", (randn(4, 1, 6), [1]), resize={"self": (2, 1, 5)}, exact=True),
        Case("dim_out_of_range", (randn(2, 1), [2]),
             raises="dim is out of range (got [2], expected dims in -2..1)"),
        Case("dim_twice", (randn(2, 1), [1, -1]),
             raises="dim names a dim twice (got [1, -1], expected distinct dims)"),
    ], guards=squeeze_guards("dim"), let=squeeze_lets("dim"), shape=SQUEEZE_SHAPE),
    copy_op("squeeze_copy_dim", "aten.squeeze_copy.dim", [Int("dim")], [
        Case("batch", (randn(1, 5, 3), 0), exact=True),
        Case("negative", (randn(4, 3, 1), -1), exact=True),
        Case("not_one_is_kept", (randn(4, 3), 1), exact=True),
        Case("rank0", (randn(), -1), exact=True),
        Case("int32", (randint(-5, 5, 2, 1, dtype="int32"), 1), exact=True),
        Case("resize", (randn(1, 8, 3), 0), resize={"self": (1, 5, 3)}, exact=True),
        Case("dim_out_of_range", (randn(2, 1), -3),
             raises="dim is out of range (got -3, expected dims in -2..1)"),
    ], guards=squeeze_guards("dim")[:1], let=squeeze_lets("[dim]"), shape=SQUEEZE_SHAPE),
    copy_op("squeeze_copy", "aten.squeeze_copy.default", [], [
        Case("all_ones_removed", (randn(1, 3, 1, 5, 1),), exact=True),
        Case("none_to_remove", (randn(2, 3),), exact=True),
        Case("to_scalar", (randn(1, 1),), exact=True),
        Case("rank0", (randn(),), exact=True),
        Case("int32", (randint(-5, 5, 1, 6, dtype="int32"),), exact=True),
        # the output keeps its built rank on a resize, so the live 1-sized dims must stay 1
        Case("resize", (randn(1, 9, 1, 4),), resize={"self": (1, 5, 1, 3)}, exact=True),
    ], let=squeeze_lets("range(self.rank)"), shape=SQUEEZE_SHAPE),
    copy_op("unsqueeze_copy", "aten.unsqueeze_copy.default", [Int("dim")], [
        Case("front", (randn(3, 5), 0), exact=True),
        Case("middle", (randn(3, 5), 1), exact=True),
        Case("end", (randn(3, 5), 2), exact=True),
        Case("negative_end", (randn(3, 5), -1), exact=True),
        Case("negative_front", (randn(3, 5), -3), exact=True),
        Case("rank0", (randn(), 0), exact=True),
        Case("int32", (randint(-5, 5, 7, dtype="int32"), -1), exact=True),
        Case("bool_mask", (randint(0, 2, 3, 7, dtype="bool"), 1), exact=True),
        Case("resize", (randn(6, 4), 1), resize={"self": (3, 4)}, exact=True),
        Case("dim_out_of_range", (randn(3, 5), 3),
             raises="dim is out of range (got 3, expected -3..2)"),
        Case("dim_out_of_range_negative", (randn(3, 5), -4),
             raises="dim is out of range (got -4, expected -3..2)"),
    ], guards=[Guard("dim >= -self.rank - 1 and dim <= self.rank", "dim", "is out of range",
                     got="dim", expected="{-self.rank - 1}..{self.rank}")],
        let={"at": "dim + self.rank + 1 if dim < 0 else dim"},
        shape="self.dims[:at] + [1] + self.dims[at:]"),
]
