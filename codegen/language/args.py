"""Argument kinds: what a spec's `args` list holds, each with all of its behaviour.

An argument kind is one class here. Besides its fields and checks it says:
- `expr_type()`: the type expressions see it as;
- `SCHEMA`: the torch schema types it serves (`serves`) and how `opgen new` writes it;
- `graph_value(v)`: the graph value a torch-style argument becomes;
- `cpp_read(read)`: the C++ declarations that read it from the graph (`CppRead`);
- `read(value, ...)`: the same read in Python, into the planning environment.
The graph value's JSON for the native runner is `Value.runner_json()`. A new argument
kind is one class (here for tensors and lists, in `codegen.language.scalar_args` for
scalars) plus its tests; `codegen.language.ARG_KINDS` lists them for `opgen new`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Union

from codegen.language import expr as E
from codegen.language.checked import SpecError, expr_text, ident, spec_class
from codegen.graph.dtypes import F32, SPEC_DTYPES
from codegen.language.expr.types import cpp_string
from codegen.graph.errors import fail
from codegen.graph.inputs import SymInt
from codegen.graph.values import NULL, Value, graph_tensor, scalar_value


@dataclass(frozen=True)
class CppRead:
    """How one argument is read in a generated function: `arg` is its ValueRef ("args[2]");
    `mutable` declares outputs writable (the resize function gives them shapes);
    `fallback` is the C++ of a nullable argument's default and `null_tested` says whether
    an expression reads `name is None`."""

    arg: str
    mutable: bool = False
    fallback: str = ""
    null_tested: bool = False


@dataclass(frozen=True)
class Scaffold:
    """How `opgen new` writes an argument of a schema type: a regex over the type as the
    schema spells it, the spec text (a format string over `name`) and the case value."""

    pattern: str
    ctor: str
    value: str


@spec_class
class Arg:
    """The base of every argument kind: `name` is how expressions and bindings read it."""

    name: str
    SCHEMA: ClassVar[tuple[Scaffold, ...]] = ()

    def __post_init__(self) -> None:
        ident(self.name, f"{type(self).__name__} name")

    def expr_type(self) -> str:
        raise NotImplementedError

    def serves(self, schema_type: str) -> bool:
        """Whether the spec may declare this argument for a schema argument of that type."""
        return getattr(self, "optional", False) == schema_type.endswith("?") and any(
            re.match(s.pattern, schema_type) for s in self.SCHEMA)

    def check_constant(self, v: Any, bound) -> None:
        """Checks a torch-side value the graph does not carry (see constant_args)."""

    def graph_value(self, v: Any) -> Value:
        return scalar_value(v)

    def cpp_read(self, read: CppRead) -> list[str]:
        raise NotImplementedError

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        """The planning-environment entries of this argument (usually just its name)."""
        raise NotImplementedError


def _check_dtypes(dtypes: Any, what: str) -> None:
    if not isinstance(dtypes, tuple) or not dtypes or any(d not in SPEC_DTYPES for d in dtypes):
        raise SpecError(f"{what} must be a non-empty tuple of {', '.join(SPEC_DTYPES)} "
                        f"(got {dtypes!r})")


def _check_rank(rank: Any, what: str) -> None:
    ok = rank is None or (isinstance(rank, int) and not isinstance(rank, bool) and rank >= 0) or (
        isinstance(rank, tuple) and len(rank) == 2 and all(isinstance(r, int) for r in rank)
        and 0 <= rank[0] <= rank[1])
    if not ok:
        raise SpecError(f"{what} must be None, an int or a (lo, hi) tuple (got {rank!r})")


def _tensor_info(v: Value) -> E.TensorInfo:
    return E.TensorInfo(v.dims, v.dtype) if v.kind == "Tensor" else E.ABSENT


def host_values(v: Value) -> tuple[int, ...]:
    """A host tensor's elements as ints (zeros where the data is not on the host: a meta
    tensor at export, as the runtime reads a tensor the host has not written yet)."""
    data = v.data
    if data is None or getattr(data, "is_meta", False):
        return (0,) * E.TensorInfo(v.dims, v.dtype).numel
    return tuple(int(x) for x in data.reshape(-1).tolist())


# --- tensors ----------------------------------------------------------------------------

@spec_class
class Tensor(Arg):
    """An input tensor. `rank` is an int, a (lo, hi) range, or None for any.
    `mutable=True` marks a schema `Tensor(a!)` the op writes in place (e.g. a KV cache):
    only mutable inputs may be bound with write=True, and the harness copies their new
    contents back into the caller's tensor, as torch does.
    `host=True`: the op reads its values on the host (expressions: `name.values`, its
    elements as ints). The runtime keeps what the host last wrote into it and runs the
    resize hooks again before the next execute, so no readback stalls the GPU; a tensor a
    device command writes cannot be one (the build fails)."""

    dtypes: tuple[str, ...] = (F32,)
    rank: Union[int, tuple[int, int], None] = None
    optional: bool = False
    mutable: bool = False
    host: bool = False
    SCHEMA = (Scaffold(r"^Tensor$", "Tensor({name!r})", "randn(2, 3, 4, 4)"),
              Scaffold(r"^Tensor\?$", "Tensor({name!r}, optional=True)", "None"))

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_dtypes(self.dtypes, f"{type(self).__name__} {self.name!r} dtypes")
        _check_rank(self.rank, f"{type(self).__name__} {self.name!r} rank")
        if self.host and (self.optional or self.mutable or any(
                d not in ("int32", "int64") for d in self.dtypes)):
            raise SpecError(f"Tensor {self.name!r}: host=True needs a required, read-only "
                            f"int32/int64 tensor (got optional={self.optional}, "
                            f"mutable={self.mutable}, dtypes={self.dtypes})")

    def expr_type(self) -> str:
        if self.host:
            return E.HOST_TENSOR
        return E.OPT_TENSOR if self.optional else E.TENSOR

    def graph_value(self, v: Any) -> Value:
        import torch

        if v is None:
            return NULL
        if not isinstance(v, torch.Tensor):
            raise TypeError(f"argument {self.name!r} must be a tensor (got {type(v).__name__})")
        return graph_tensor(v, f"argument {self.name!r}")

    def cpp_read(self, read: CppRead) -> list[str]:
        const = "" if read.mutable and isinstance(self, Output) else "const "
        if self.host:
            return [f"const Tensor& {self.name} = graph.read_on_host({read.arg}, kOp, "
                    f"{cpp_string(self.name)});"]
        if self.optional:
            return [f"{const}Tensor* {self.name} = graph.is_null({read.arg}) ? nullptr : "
                    f"&graph.get_tensor({read.arg});"]
        return [f"{const}Tensor& {self.name} = graph.get_tensor({read.arg});"]

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        if value.kind == "Null" and not self.optional:
            raise fail(op, self.name, "is missing", "None", "a tensor")
        if self.host:
            return {self.name: E.TensorInfo(value.dims, value.dtype, values=host_values(value))}
        return {self.name: _tensor_info(value)}


@spec_class
class Output(Tensor):
    """An output tensor (the op's last argument, or an item of its `Outputs` list).
    `placeholder=True`: the reference leaves its contents unspecified (e.g. a
    `torch.empty` returned by an in-place op); cases check its shape, not its values.
    `unused=True`: the op neither reads nor writes it and its shape is not checked (what
    exporters allocate for it varies, e.g. batch norm's save_mean: [C] or [0])."""

    placeholder: bool = False
    unused: bool = False
    SCHEMA = ()


@spec_class
class SymIntOutput(Arg):
    """An op that returns a SymInt (`sym_size.int`, `select_as_symint`, SymInt arithmetic):
    `value` is an int expression over the arguments. It is computed on the host when the
    op is built and again by its resize hook, so later ops read the live value without a
    GPU round trip; such an op records no dispatch."""

    value: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        expr_text(self.value, f"SymIntOutput {self.name!r} value")

    def cpp_read(self, read: CppRead) -> list[str]:
        return []

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        return {}


@spec_class
class Outputs(Arg):
    """A multi-output op's ValueList: one Output per returned tensor, in order."""

    items: tuple[Output, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.items or not all(isinstance(i, Output) for i in self.items):
            raise SpecError(f"Outputs {self.name!r} items must be a non-empty tuple of "
                            f"Output(...) (got {self.items!r})")

    def cpp_read(self, read: CppRead) -> list[str]:
        lines = [f"const std::vector<ValueRef>& {self.name} = graph.get_value_list({read.arg});"]
        const = "" if read.mutable else "const "
        for j, item in enumerate(self.items):
            if read.mutable and item.unused:
                continue  # a resize gives an unused output no shape
            ref = f"{self.name}[{j}]"
            if item.optional:
                lines.append(f"{const}Tensor* {item.name} = {self.name}.size() > {j} && "
                             f"!graph.is_null({ref}) ? &graph.get_tensor({ref}) : nullptr;")
            else:
                lines.append(f"{const}Tensor& {item.name} = "
                             f"graph.get_tensor(utils::at({self.name}, {j}));")
        return lines

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        return {item.name: _tensor_info(v) for item, v in zip(self.items, value.data)}


@spec_class
class TensorList(Arg):
    """A list of tensors (`Tensor[]`, or `Tensor?[]` with optional_items=True, whose
    entries may be None). Expressions read `len(name)` and `name[k]` (an optional tensor:
    `name[k].present`, `name[k].dims`); `Bind(..., item=k)` binds entry k (a dummy when
    the list is shorter or the entry is None). At most `max_items` entries (None: any
    number). A `Dispatch(..., foreach=<name>)` runs once per entry, `index` naming the
    entry's position in its expressions; its `Bind(<name>)` (no item) binds that entry."""

    dtypes: tuple[str, ...] = (F32,)
    rank: Union[int, tuple[int, int], None] = None
    optional_items: bool = False
    max_items: Union[int, None] = 4
    index: str = "i"
    SCHEMA = (Scaffold(r"^Tensor\[\]$", "TensorList({name!r})", "[randn(2, 3)]"),
              Scaffold(r"^Tensor\?\[\]$", "TensorList({name!r}, optional_items=True)",
                       "[randn(2, 3)]"))

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_dtypes(self.dtypes, f"TensorList {self.name!r} dtypes")
        _check_rank(self.rank, f"TensorList {self.name!r} rank")
        if self.max_items is not None and (not isinstance(self.max_items, int)
                                           or self.max_items < 1):
            raise SpecError(f"TensorList {self.name!r} max_items must be a positive int or "
                            f"None (got {self.max_items!r})")
        ident(self.index, f"TensorList {self.name!r} index")

    def expr_type(self) -> str:
        return E.TENSOR_LIST

    def serves(self, schema_type: str) -> bool:
        return schema_type == ("Tensor?[]" if self.optional_items else "Tensor[]")

    def graph_value(self, v: Any) -> Value:
        if v is None:
            return NULL
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"argument {self.name!r} must be a list of tensors "
                            f"(got {type(v).__name__})")
        return Value("ValueList", [NULL if t is None else graph_tensor(t, f"{self.name}[{k}]")
                                   for k, t in enumerate(v)])

    def cpp_read(self, read: CppRead) -> list[str]:
        return [f"std::vector<const Tensor*> {self.name};  // nullptr for a None entry",
                f"for (const ValueRef item : graph.get_value_list({read.arg})) {{",
                f"  {self.name}.push_back(graph.is_null(item) ? nullptr : "
                f"&graph.get_tensor(item));",
                "}"]

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        return {self.name: [_tensor_info(v) for v in value.data]}


@spec_class
class OutputList(Arg):
    """A `Tensor[]` return: a ValueList holding a variable number of like outputs.

    `item` describes each output; `count` (an expression) is how many there must be.
    Expressions that name the item or `index` are evaluated once per output: the item's
    shape formula and the dispatches declared with `foreach=<this name>`."""

    item: Output = None
    count: str = ""
    index: str = "i"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.item, Output):
            raise SpecError(f"OutputList {self.name!r} item must be Output(...) (got "
                            f"{self.item!r})")
        expr_text(self.count, f"OutputList {self.name!r} count")
        ident(self.index, f"OutputList {self.name!r} index")

    def cpp_read(self, read: CppRead) -> list[str]:
        return [f"const std::vector<ValueRef>& {self.name} = graph.get_value_list({read.arg});"]

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        return {self.name: [E.TensorInfo(v.dims, v.dtype) for v in value.data]}


# --- lists ------------------------------------------------------------------------------

@spec_class
class IntList(Arg):
    """An int list (`int[]`, `int[N]`, `SymInt[]`). `hw=True` accepts one or two values
    and broadcasts one to both spatial dims. An optional list that arrives as None
    reads as []."""

    hw: bool = False
    optional: bool = False
    SCHEMA = (Scaffold(r"^(Sym)?[Ii]nt\[\d*\]$", "IntList({name!r})", "[1, 1]"),
              Scaffold(r"^(Sym)?[Ii]nt\[\d*\]\?$", "IntList({name!r}, optional=True)", "None"))

    def expr_type(self) -> str:
        return E.INT_LIST

    def graph_value(self, v: Any) -> Value:
        if v is None:
            return NULL
        items = v if isinstance(v, (list, tuple)) else [v]
        if any(isinstance(x, SymInt) for x in items):  # a shape with a dynamic dim
            return Value("ValueList", [scalar_value(x) for x in items])
        return Value("IntList", [int(x) for x in items])

    def cpp_read(self, read: CppRead) -> list[str]:
        text = f"utils::read_int_list(graph, {read.arg}, kOp, {cpp_string(self.name)})"
        if self.hw:
            text = f"utils::parse_hw({text}, kOp, {cpp_string(self.name)})"
        if self.optional:
            text = f"graph.is_null({read.arg}) ? std::vector<int64_t>{{}} : {text}"
        return [f"const std::vector<int64_t> {self.name} = {text};"]

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        values = [] if value.kind == "Null" else list(value.data)
        if value.kind == "ValueList":  # Int and SymInt values: the twin of read_int_list
            if any(x.kind not in ("Int", "SymInt") for x in values):
                raise fail(op, self.name, "has the wrong value type", "ValueList",
                           "IntList or a ValueList of Int and SymInt")
            values = [int(x.data) for x in values]
        if self.hw:
            if len(values) not in (1, 2):
                raise fail(op, self.name, "must hold one or two values", E.format_value(values),
                           "[h, w] or [v]")
            values = values * 2 if len(values) == 1 else values
        return {self.name: values}


@spec_class
class DoubleList(Arg):
    """A float list (`float[]`); an optional list that arrives as None reads as []."""

    optional: bool = False
    SCHEMA = (Scaffold(r"^float\[\d*\]$", "DoubleList({name!r})", "[1.0]"),
              Scaffold(r"^float\[\d*\]\?$", "DoubleList({name!r}, optional=True)", "None"))

    def expr_type(self) -> str:
        return E.FLOAT_LIST

    def graph_value(self, v: Any) -> Value:
        return NULL if v is None else Value("DoubleList", [float(x) for x in v])

    def cpp_read(self, read: CppRead) -> list[str]:
        text = f"graph.get_double_list({read.arg})"
        if self.optional:
            text = f"graph.is_null({read.arg}) ? std::vector<double>{{}} : {text}"
        return [f"const std::vector<double> {self.name} = {text};"]

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        return {self.name: [] if value.kind == "Null" else list(value.data)}
