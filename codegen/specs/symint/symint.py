"""SymInt-valued ops: what an exported LLM computes about its own shapes and positions.

ExecuTorch's LLM export (`export_llama ... --vulkan`) serializes, besides tensor ops:
    sym_size.int(tokens, 1)               the live sequence length
    et_vk.select_as_symint(input_pos, 0, -1)  the cache position, read from a tensor
    add(start_pos, seq_len)               Python's operator on SymInts (also sub, mul,
                                          floordiv), serialized by its bare name
whose SymInt results feed slice_copy (the RoPE table rows) and sdpa_with_kv_cache. Each is
an op that returns a SymInt (`SymIntOutput`): its value is computed on the host when the
graph is built and again in its resize hook, in graph order, so every later hook reads
the live value. `select_as_symint` reads its tensor's values on the host
(`Tensor(host=True)`): the runtime keeps what the host last wrote into `input_pos` and
runs the resize hooks before the next execute, so a decode step costs no GPU readback.
The loader maps the bare operator names onto the ATen int ops of the same meaning
(`add` -> aten.add.int; codegen/et/vk_graph.py op_target).
"""

from codegen.language import (BOOL, F16, F32, I8, I32, I64, U8, Case, Guard, Int, Op,
                              SymIntOutput, Tensor)
from codegen.graph.inputs import SymInt, randint, randn, tensor

ANY_DTYPE = (F32, F16, I32, I64, BOOL, U8, I8)


def _select_as_symint(x, dim, index):
    """ExecuTorch registers only a meta kernel: the element x.select(dim, index) holds."""
    return int(x.select(dim, index).reshape(-1)[0].item())


SYM_SIZE = Op(
    name="sym_size",
    targets=["aten.sym_size.int"],
    args=[Tensor("self", dtypes=ANY_DTYPE), Int("dim"), SymIntOutput("out", value="self.dims[dim]")],
    guards=[Guard("dim >= -self.rank and dim < self.rank", "dim", "is out of range", got="dim",
                  expected="-{self.rank}..{self.rank - 1}")],
    shapes={},
    resize="dynamic",
    dispatches=[],
    cases=[
        Case("tokens", (randint(0, 100, 1, 7), 1)),
        Case("negative_dim", (randn(2, 3, 5), -1)),
        # the token count of a decode step after a 7-token prefill
        Case("follows_resize", (randint(0, 100, 1, 7), 1), resize={"self": (1, 1)}),
        Case("dim_out_of_range", (randn(2, 3), 2),
             raises="dim is out of range (got 2, expected -2..1)"),
    ],
)

SELECT_AS_SYMINT = Op(
    name="select_as_symint",
    targets=["et_vk.select_as_symint.default"],
    args=[Tensor("x", dtypes=(I32, I64), host=True), Int("dim"), Int("index"),
          SymIntOutput("out", value="x.values[index % x.dims[dim]]")],
    guards=[
        Guard("dim >= -x.rank and dim < x.rank", "dim", "is out of range", got="dim",
              expected="-{x.rank}..{x.rank - 1}"),
        Guard("x.numel == x.dims[dim]", "x", "holds more than one element per index of dim",
              got="x.dims", expected="size 1 in every dim but {dim}"),
        Guard("index >= -x.dims[dim] and index < x.dims[dim]", "index", "is out of range",
              got="index", expected="-{x.dims[dim]}..{x.dims[dim] - 1}"),
    ],
    shapes={},
    resize="dynamic",
    dispatches=[],
    reference=_select_as_symint,
    cases=[
        Case("input_pos_last", (tensor([5], dtype="int64"), 0, -1)),
        Case("input_pos_first", (tensor([[3], [9], [11]], dtype="int32"), 0, 1)),
        # a decode step: the host writes the new position, the value follows it
        Case("follows_host_write", (randint(0, 64, 1), 0, 0), resize={"x": (1,)}),
        Case("dim_out_of_range", (tensor([5, 6], dtype="int64"), 1, 0),
             raises="dim is out of range (got 1, expected -1..0)"),
        Case("index_out_of_range", (tensor([5, 6], dtype="int64"), 0, 2),
             raises="index is out of range (got 2, expected -2..1)"),
        Case("not_a_vector", (tensor([[1, 2], [3, 4]], dtype="int64"), 0, 0),
             raises="x holds more than one element per index of dim (got [2, 2], expected size "
                    "1 in every dim but 0)"),
        Case("float_tensor", (randn(1), 0, 0),
             raises="x has an unsupported dtype (got float32, expected int32 or int64)"),
    ],
)


def _arith(name: str, op: str, cases: list[Case], guards=()) -> Op:
    return Op(
        name=f"sym_{name}",
        targets=[f"aten.{name}.int"],
        args=[Int("a", symbolic=True), Int("b", symbolic=True),
              SymIntOutput("out", value=f"a {op} b")],
        guards=list(guards),
        shapes={},
        resize="dynamic",
        dispatches=[],
        cases=cases,
    )


SYM_ADD = _arith("add", "+", [
    Case("end_of_slice", (SymInt(5), SymInt(7))),
    Case("int_and_symint", (SymInt(5), 3)),
    # the position moves on: the sum follows without a rebuild
    Case("follows_symint", (SymInt(0), SymInt(7)), resize={"a": 12, "b": 1}),
])
SYM_SUB = _arith("sub", "-", [
    Case("difference", (SymInt(9), SymInt(4))),
    Case("negative", (SymInt(2), 5)),
    Case("follows_symint", (SymInt(9), SymInt(4)), resize={"b": 8}),
])
SYM_MUL = _arith("mul", "*", [
    Case("product", (SymInt(6), SymInt(7))),
    Case("follows_symint", (SymInt(6), 2), resize={"a": -3}),
])
SYM_FLOORDIV = _arith("floordiv", "//", [
    Case("quotient", (SymInt(17), SymInt(5))),
    Case("floors_negative", (SymInt(-7), 2)),
    Case("follows_symint", (SymInt(17), SymInt(5)), resize={"b": 4}),
    Case("by_zero", (SymInt(3), 0), raises="b is zero (got 0, expected a non-zero divisor)"),
], guards=[Guard("b != 0", "b", "is zero", got="b", expected="a non-zero divisor")])

OPS = [SYM_SIZE, SELECT_AS_SYMINT, SYM_ADD, SYM_SUB, SYM_MUL, SYM_FLOORDIV]
