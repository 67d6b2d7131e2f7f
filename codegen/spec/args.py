"""Argument kinds: what a spec's `args` list holds, each with all of its behaviour.

An argument kind is one class here. Besides its fields and checks it says:
- `expr_type()`: the type expressions see it as;
- `SCHEMA`: the torch schema types it serves (`accepts`), and how `opgen new`
  scaffolds one (`scaffold`);
- `graph_value(v)`: the graph value a torch-style argument becomes;
- `cpp_read(read)`: the C++ declarations that read it from the graph (`CppRead`);
- `read(value, ...)`: the same read in Python, into the planning environment.
The graph value's JSON for the native runner is `Value.runner_json()`. A new argument
kind is one class here plus its tests.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Union

from codegen.spec import expr as E
from codegen.spec.checked import SpecError, expr_text, ident, spec_class
from codegen.spec.dtypes import F32, SPEC_DTYPES
from codegen.spec.failures import fail
from codegen.spec.values import NULL, Value, graph_tensor, scalar_value


def cpp_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
    name: str
    SCHEMA: ClassVar[tuple[Scaffold, ...]] = ()

    def __post_init__(self) -> None:
        ident(self.name, f"{type(self).__name__} name")

    def expr_type(self) -> str:
        raise NotImplementedError

    def accepts(self, schema_type: str) -> bool:
        """Whether the spec may declare this argument for a schema argument of that type."""
        optional = schema_type.endswith("?")
        return getattr(self, "optional", False) == optional and any(
            re.match(s.pattern, schema_type.rstrip("?") + ("?" if optional else ""))
            for s in self.SCHEMA)

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


# --- tensors ----------------------------------------------------------------------------

@spec_class
class Tensor(Arg):
    """An input tensor. `rank` is an int, a (lo, hi) range, or None for any.
    `mutable=True` marks a schema `Tensor(a!)` the op writes in place (e.g. a KV cache):
    only mutable inputs may be bound with write=True, and the harness copies their new
    contents back into the caller's tensor, as torch does."""

    dtypes: tuple[str, ...] = (F32,)
    rank: Union[int, tuple[int, int], None] = None
    optional: bool = False
    mutable: bool = False
    SCHEMA = (Scaffold(r"^Tensor$", "Tensor({name!r})", "randn(2, 3, 4, 4)"),
              Scaffold(r"^Tensor\?$", "Tensor({name!r}, optional=True)", "None"))

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_dtypes(self.dtypes, f"{type(self).__name__} {self.name!r} dtypes")
        _check_rank(self.rank, f"{type(self).__name__} {self.name!r} rank")

    def expr_type(self) -> str:
        return E.OPT_TENSOR if self.optional else E.TENSOR

    def graph_value(self, v: Any) -> Value:
        import torch

        if v is None:
            return NULL
        if not isinstance(v, torch.Tensor):
            raise TypeError(f"argument {self.name!r} must be a tensor (got {type(v).__name__})")
        return graph_tensor(v)

    def cpp_read(self, read: CppRead) -> list[str]:
        const = "" if read.mutable and isinstance(self, Output) else "const "
        if self.optional:
            return [f"{const}Tensor* {self.name} = graph.is_null({read.arg}) ? nullptr : "
                    f"&graph.get_tensor({read.arg});"]
        return [f"{const}Tensor& {self.name} = graph.get_tensor({read.arg});"]

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        if value.kind == "Null" and not self.optional:
            raise fail(op, self.name, "is missing", "None", "a tensor")
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
    the list is shorter or the entry is None). At most `max_items` entries."""

    dtypes: tuple[str, ...] = (F32,)
    rank: Union[int, tuple[int, int], None] = None
    optional_items: bool = False
    max_items: int = 4
    SCHEMA = (Scaffold(r"^Tensor\[\]$", "TensorList({name!r})", "[randn(2, 3)]"),
              Scaffold(r"^Tensor\?\[\]$", "TensorList({name!r}, optional_items=True)",
                       "[randn(2, 3)]"))

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_dtypes(self.dtypes, f"TensorList {self.name!r} dtypes")
        _check_rank(self.rank, f"TensorList {self.name!r} rank")
        if not isinstance(self.max_items, int) or self.max_items < 1:
            raise SpecError(f"TensorList {self.name!r} max_items must be a positive int "
                            f"(got {self.max_items!r})")

    def expr_type(self) -> str:
        return E.TENSOR_LIST

    def accepts(self, schema_type: str) -> bool:
        return schema_type == ("Tensor?[]" if self.optional_items else "Tensor[]")

    def graph_value(self, v: Any) -> Value:
        if v is None:
            return NULL
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"argument {self.name!r} must be a list of tensors "
                            f"(got {type(v).__name__})")
        return Value("ValueList", [NULL if t is None else graph_tensor(t) for t in v])

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
        return Value("IntList", [int(x) for x in (v if isinstance(v, (list, tuple)) else [v])])

    def cpp_read(self, read: CppRead) -> list[str]:
        text = f"graph.get_int_list({read.arg})"
        if self.hw:
            text = f"utils::parse_hw({text}, kOp, {cpp_string(self.name)})"
        if self.optional:
            text = f"graph.is_null({read.arg}) ? std::vector<int64_t>{{}} : {text}"
        return [f"const std::vector<int64_t> {self.name} = {text};"]

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        values = [] if value.kind == "Null" else list(value.data)
        if self.hw:
            if len(values) not in (1, 2):
                raise fail(op, self.name, "must hold one or two values", E.format_value(values),
                           "[h, w] or [v]")
            values = values * 2 if len(values) == 1 else values
        return {self.name: values}


@spec_class
class DoubleList(Arg):
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


# --- scalars ----------------------------------------------------------------------------

def _check_default(arg: Arg, kinds: tuple) -> None:
    d = getattr(arg, "default")
    if isinstance(d, str):
        expr_text(d, f"{type(arg).__name__} {arg.name!r} default")
    elif d is not None and (isinstance(d, bool) != (bool in kinds) or not isinstance(d, kinds)):
        raise SpecError(f"{type(arg).__name__} {arg.name!r} default must be "
                        f"{' or '.join(k.__name__ for k in kinds)} or an expression over the "
                        f"arguments before it (got {d!r})")


class _Scalar:
    """Scalar arguments, which may arrive as None: `optional` mirrors the schema's `?`;
    `default` is what a None reads as: a literal, or an expression over the arguments
    before it (it also makes a non-optional argument accept None). Expressions test a
    nullable argument with `name is None`."""

    CPP_TYPE: ClassVar[str] = ""

    @property
    def nullable(self) -> bool:
        return self.optional or self.default is not None

    @property
    def fallback(self) -> str:
        """The expression an argument that is None reads as."""
        if isinstance(self.default, str):
            return self.default
        if self.default is not None:
            return repr(self.default)
        return {E.INT: "0", E.FLOAT: "0.0", E.BOOL: "False"}[self.expr_type()]

    def cpp_value(self, arg: str) -> str:
        """The C++ that reads a present value."""
        raise NotImplementedError

    def cpp_read(self, read: CppRead) -> list[str]:
        value = self.cpp_value(read.arg)
        if not self.nullable:
            return [f"const {self.CPP_TYPE} {self.name} = {value};"]
        if not read.null_tested:
            return [f"const {self.CPP_TYPE} {self.name} = graph.is_null({read.arg}) ? "
                    f"{read.fallback} : {value};"]
        flag = E.null_cpp(self.name)
        return [f"const bool {flag} = graph.is_null({read.arg});",
                f"const {self.CPP_TYPE} {self.name} = {flag} ? {read.fallback} : {value};"]

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        entries = {E.null_key(self.name): value.kind == "Null"} if self.nullable else {}
        if value.kind == "Null" and self.nullable:
            return {self.name: self.convert(fallback()), **entries}
        if value.kind == "Null" and not isinstance(self, Int):
            raise fail(op, self.name, "is missing", "None", f"a value ({self.expr_type()})")
        return {self.name: self.convert_value(value, op), **entries}

    def convert(self, v: Any) -> Any:
        return v

    def convert_value(self, value: Value, op: str) -> Any:
        return self.convert(value.data)


def integral_to_int(v: float, op: str, argument: str) -> int:
    """Twin of utils::integral_to_int: an integral Double read as an `int` argument."""
    if not (math.isfinite(v) and v == math.trunc(v) and -(2.0**63) <= v < 2.0**63):
        raise fail(op, argument, "is not an integral number", E.format_value(v),
                   "an integer in int64 range")
    return int(v)


@spec_class
class Int(_Scalar, Arg):
    """`int` (build-time) or, with symbolic=True, `SymInt` (Int or runtime SymInt; a
    runtime SymInt may change between runs, so the op must be resize="dynamic").
    An integral Double is accepted too (checked, never truncated)."""

    symbolic: bool = False
    optional: bool = False
    default: Union[int, str, None] = None
    CPP_TYPE = "int64_t"
    SCHEMA = (Scaffold(r"^SymInt$", "Int({name!r}, symbolic=True)", "1"),
              Scaffold(r"^int$", "Int({name!r})", "1"),
              Scaffold(r"^SymInt\?$", "Int({name!r}, symbolic=True, optional=True)", "None"),
              Scaffold(r"^int\?$", "Int({name!r}, optional=True)", "None"))

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_default(self, (int,))

    def expr_type(self) -> str:
        return E.INT

    def accepts(self, schema_type: str) -> bool:
        base = schema_type.rstrip("?")
        return (self.optional == schema_type.endswith("?") and base in ("int", "SymInt")
                and (not self.symbolic or base == "SymInt"))

    def cpp_value(self, arg: str) -> str:
        return (f"utils::read_int(graph, {arg}, kOp, {cpp_string(self.name)}, "
                f"{'true' if self.symbolic else 'false'})")

    def convert_value(self, value: Value, op: str) -> Any:
        """Twin of utils::read_int: an Int, a SymInt (when symbolic) or an integral Double."""
        if value.kind == "Int" or (value.kind == "SymInt" and self.symbolic):
            return int(value.data)
        if value.kind == "Double":
            return integral_to_int(float(value.data), op, self.name)
        raise fail(op, self.name, "has the wrong value type", value.kind,
                   "Int, SymInt or an integral Double" if self.symbolic
                   else "Int or an integral Double")


@spec_class
class Double(_Scalar, Arg):
    optional: bool = False
    default: Union[float, int, str, None] = None
    CPP_TYPE = "double"
    SCHEMA = (Scaffold(r"^float$", "Double({name!r})", "1.0"),
              Scaffold(r"^float\?$", "Double({name!r}, optional=True)", "None"))

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_default(self, (float, int))

    def expr_type(self) -> str:
        return E.FLOAT

    def cpp_value(self, arg: str) -> str:
        return f"graph.get_double({arg})"

    def convert(self, v: Any) -> Any:
        return float(v)


@spec_class
class Scalar(_Scalar, Arg):
    """A `Scalar` that may arrive as Int or Double; reads as a float."""

    optional: bool = False
    default: Union[float, int, str, None] = None
    CPP_TYPE = "double"
    SCHEMA = (Scaffold(r"^Scalar$", "Scalar({name!r})", "1.0"),
              Scaffold(r"^Scalar\?$", "Scalar({name!r}, optional=True)", "None"))

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_default(self, (float, int))

    def expr_type(self) -> str:
        return E.FLOAT

    def cpp_value(self, arg: str) -> str:
        return f"graph.get_scalar({arg})"

    def convert(self, v: Any) -> Any:
        return float(v)


@spec_class
class Bool(_Scalar, Arg):
    optional: bool = False
    default: Union[bool, str, None] = None
    CPP_TYPE = "bool"
    SCHEMA = (Scaffold(r"^bool$", "Bool({name!r})", "False"),
              Scaffold(r"^bool\?$", "Bool({name!r}, optional=True)", "None"))

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_default(self, (bool,))

    def expr_type(self) -> str:
        return E.BOOL

    def cpp_value(self, arg: str) -> str:
        return f"graph.get_bool({arg})"

    def convert(self, v: Any) -> Any:
        return bool(v)


@spec_class
class Ignored(Arg):
    """An argument of the schema the op does not read (e.g. memory_format)."""

    def expr_type(self) -> str:
        return ""

    def accepts(self, schema_type: str) -> bool:
        return True


ARG_KINDS = (Tensor, TensorList, IntList, DoubleList, Int, Double, Scalar, Bool, Ignored)
