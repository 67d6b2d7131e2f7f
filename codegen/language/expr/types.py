"""The vocabulary shared by the checker, the C++ renderer and the evaluator.

The type names an expression can have, the two errors (a bad expression while loading a
spec, a failed evaluation at run time), the symbols a scope holds, the Python side of a
tensor, how values print in error messages, and the operator tables. Everything else in
the package imports from here, so this module imports nothing of the package.
"""

from __future__ import annotations

import ast
import math
import operator
from dataclasses import dataclass
from typing import Any

from codegen.graph.dtypes import SPEC_DTYPES

INT, FLOAT, BOOL, STR = "int", "float", "bool", "str"
TEXT = "text"  # a Str argument or a string literal other than a dtype name
INT_LIST, FLOAT_LIST, BOOL_LIST = "int[]", "float[]", "bool[]"
TENSOR, OPT_TENSOR, TENSOR_LIST = "Tensor", "Tensor?", "Tensor?[]"
HOST_TENSOR = "HostTensor"  # a tensor an op reads on the host (`Tensor(host=True)`)
NUMERIC = (INT, FLOAT)
LISTS = (INT_LIST, FLOAT_LIST, BOOL_LIST)

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

TENSOR_ATTRS = {"dims": INT_LIST, "rank": INT, "numel": INT, "present": BOOL, "dtype": STR}
# a host tensor's elements, as integers, in row-major order (`.values`)
HOST_TENSOR_ATTRS = {**TENSOR_ATTRS, "values": INT_LIST}
# string constants: dtype names (type STR, compared with `t.dtype`); any other string is
# TEXT, compared with a Str argument (a dtype-named literal compared with one is TEXT too)
DTYPE_NAMES = SPEC_DTYPES

# comparison and arithmetic operators, with their C++ spelling (`//`, `%` and `/` are
# rendered as utils:: calls, not with these)
CMP_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
           ast.GtE: ">="}
COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
           ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
ARITH_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%",
             ast.Div: "/"}


def cpp_string(text: str) -> str:
    """A C++ string literal holding `text`."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class ExprError(ValueError):
    """A malformed or ill-typed expression (raised while loading a spec)."""


class EvalError(ValueError):
    """An expression failed while evaluating (a runtime condition, e.g. division by 0)."""


@dataclass(frozen=True)
class Sym:
    """A name visible to expressions: its type and the C++ text that reads it."""

    type: str
    cpp: str
    nullable: bool = False  # an argument that may arrive as None: `name is None` reads it


def null_key(name: str) -> str:
    """The environment key of `name is None` for a nullable argument."""
    return f"{name} is None"


def null_cpp(name: str) -> str:
    """The C++ variable holding `name is None`."""
    return f"{name}_is_null"


@dataclass(frozen=True)
class TensorInfo:
    """What an expression may read of a tensor (Python side of `Tensor`)."""

    dims: tuple[int, ...]
    dtype: str
    present: bool = True
    values: tuple[int, ...] = ()  # a host tensor's elements (HOST_TENSOR's `.values`)

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def numel(self) -> int:
        return math.prod(self.dims)


ABSENT = TensorInfo((), "", present=False)


def check_int(v: Any) -> Any:
    """`v` itself, unless it is an integer outside int64 (C++ throws there too)."""
    if isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX:
        raise EvalError("integer overflow")
    return v


def format_value(v: Any) -> str:
    """Formats a value for an error message exactly as `utils::format_value` does in C++."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    return str(v)
