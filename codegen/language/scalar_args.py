"""Scalar argument kinds (int, float, Scalar, bool, str); see `codegen.language.args` for
what an argument kind says about itself."""

from __future__ import annotations

import math
from typing import Any, Callable, ClassVar, Union

from codegen.language import expr as E
from codegen.language.args import Arg, CppRead, Scaffold
from codegen.language.checked import SpecError, expr_text, spec_class
from codegen.language.expr.types import cpp_string
from codegen.graph.errors import fail
from codegen.graph.values import Value


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
    EXPR_TYPE: ClassVar[str] = ""  # what expressions read it as
    DEFAULT_KINDS: ClassVar[tuple] = ()  # the literal defaults it takes (else checked apart)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.DEFAULT_KINDS:
            _check_default(self, self.DEFAULT_KINDS)

    def expr_type(self) -> str:
        return self.EXPR_TYPE

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
        return {E.INT: "0", E.FLOAT: "0.0", E.BOOL: "False", E.TEXT: "''"}[self.expr_type()]

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
    EXPR_TYPE = E.INT
    DEFAULT_KINDS = (int,)
    SCHEMA = (Scaffold(r"^SymInt$", "Int({name!r}, symbolic=True)", "1"),
              Scaffold(r"^int$", "Int({name!r})", "1"),
              Scaffold(r"^SymInt\?$", "Int({name!r}, symbolic=True, optional=True)", "None"),
              Scaffold(r"^int\?$", "Int({name!r}, optional=True)", "None"))

    def serves(self, schema_type: str) -> bool:
        # a symbolic Int serves an `int` too: ATen's int arithmetic (aten.add.int) is what
        # the graph's SymInt `add` computes, on SymInt values
        base = schema_type.rstrip("?")
        return self.optional == schema_type.endswith("?") and base in ("int", "SymInt")

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
    """A `float` (`float?` with optional=True); expressions read it as a float. A None
    reads as `default` (a literal or an expression over the arguments before it, e.g.
    sdpa's `default="1.0 / sqrt(float(q.dims[-1]))"`), else 0.0."""

    optional: bool = False
    default: Union[float, int, str, None] = None
    CPP_TYPE = "double"
    EXPR_TYPE = E.FLOAT
    DEFAULT_KINDS = (float, int)
    SCHEMA = (Scaffold(r"^float$", "Double({name!r})", "1.0"),
              Scaffold(r"^float\?$", "Double({name!r}, optional=True)", "None"))

    def cpp_value(self, arg: str) -> str:
        return f"utils::read_double(graph, {arg}, kOp, {cpp_string(self.name)})"

    def convert(self, v: Any) -> Any:
        return float(v)

    def convert_value(self, value: Value, op: str) -> Any:
        """Twin of utils::read_double: a Double, or an Int (ExecuTorch's serializer writes
        a float argument whose Python value is an int as Int)."""
        if value.kind in ("Double", "Int"):
            return float(value.data)
        raise fail(op, self.name, "has the wrong value type", value.kind, "Double or Int")


@spec_class
class Scalar(Double):
    """A `Scalar` that may arrive as Int or Double; reads as a float, as a Double does."""

    SCHEMA = (Scaffold(r"^Scalar$", "Scalar({name!r})", "1.0"),
              Scaffold(r"^Scalar\?$", "Scalar({name!r}, optional=True)", "None"))

    def cpp_value(self, arg: str) -> str:
        return f"graph.get_scalar({arg})"

    def convert_value(self, value: Value, op: str) -> Any:
        """Twin of graph.get_scalar: the value as a float, whatever its kind."""
        return self.convert(value.data)


@spec_class
class Bool(_Scalar, Arg):
    """A `bool` (`bool?` with optional=True); a None reads as `default`, else False."""

    optional: bool = False
    default: Union[bool, str, None] = None
    CPP_TYPE = "bool"
    EXPR_TYPE = E.BOOL
    DEFAULT_KINDS = (bool,)
    SCHEMA = (Scaffold(r"^bool$", "Bool({name!r})", "False"),
              Scaffold(r"^bool\?$", "Bool({name!r}, optional=True)", "None"))

    def cpp_value(self, arg: str) -> str:
        return f"graph.get_bool({arg})"

    def convert(self, v: Any) -> Any:
        return bool(v)


@spec_class
class Str(_Scalar, Arg):
    """A `str` (e.g. gelu's approximate) that expressions compare with string literals
    (`approximate == 'tanh'`). `values` are the strings the op implements; reading any
    other string fails on every executor, so a new mode is never computed as another."""

    values: tuple[str, ...] = ()
    optional: bool = False
    default: Union[str, None] = None
    CPP_TYPE = "std::string"
    EXPR_TYPE = E.TEXT
    SCHEMA = (Scaffold(r"^str$", "Str({name!r}, values={value})", ""),
              Scaffold(r"^str\?$", "Str({name!r}, values={value}, optional=True)", ""))

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.values or not all(isinstance(v, str) for v in self.values):
            raise SpecError(f"Str {self.name!r} values must be a non-empty tuple of the strings "
                            f"the op implements, e.g. values=('none', 'tanh') (got "
                            f"{self.values!r})")
        if self.default is not None and self.default not in self.values:
            raise SpecError(f"Str {self.name!r} default {self.default!r} must be one of its "
                            f"values {self.values!r}")

    @property
    def fallback(self) -> str:
        return repr(self.default if self.default is not None else "")

    def cpp_value(self, arg: str) -> str:
        return f"graph.get_string({arg})"

    def cpp_read(self, read: CppRead) -> list[str]:
        allowed = self.values + (("",) if self.nullable and self.default is None else ())
        test = " && ".join(f"{self.name} != {cpp_string(v)}" for v in allowed)
        return super().cpp_read(read) + [
            f"if ({test}) {{",
            f"  utils::fail(kOp, {cpp_string(self.name)}, \"is not supported\", {self.name}, "
            f"{cpp_string(' or '.join(self.values))});",
            "}"]

    def convert_value(self, value: Value, op: str) -> Any:
        if value.kind != "String" or value.data not in self.values:
            got = value.data if value.kind == "String" else value.kind
            raise fail(op, self.name, "is not supported", str(got), " or ".join(self.values))
        return value.data
