"""The spec expression language.

One restricted subset of Python expressions, parsed with `ast`, used for guards, shape
formulas, Params values, route predicates and grid sizes. Every expression is type
checked against a scope of named symbols, rendered to C++ (against the runtime's
`utils::` helpers) and evaluated in Python with the same semantics:

- integers are int64; `//` and `%` floor like Python (and throw on a zero divisor) on
  both sides; a result outside int64 is an error on both sides (`utils::add/sub/mul`);
- `and`/`or` short-circuit, `a if c else b` is a conditional;
- `t.dims[i]` accepts Python's negative indices and is bounds checked;
- `[elt for v in xs if cond]` builds an int list from an int list or a tensor list
  (one `for`, at most one `if`); `k in xs` tests membership in an int list;
- narrowing to u32/i32 happens only when a value is packed, and is checked there.

This module holds `Expr`, which parses and ties the parts together, and re-exports the
package's public names. The parts: `types` (type names, errors, symbols, tensor info,
value formatting), `builtins` (the function table), `check` (the type checker), `cpp`
(the C++ renderer) and `evaluate` (the Python evaluator); the last three walk the tree
with one function per node kind.
"""

from __future__ import annotations

import ast
from typing import Any, Mapping

from codegen.language.expr.builtins import BUILTINS, Builtin
from codegen.language.expr.check import check as _check
from codegen.language.expr.cpp import negated as _negated
from codegen.language.expr.cpp import render as _render
from codegen.language.expr.evaluate import evaluate as _evaluate
from codegen.language.expr.types import (ABSENT, BOOL, BOOL_LIST, DTYPE_NAMES, FLOAT, FLOAT_LIST,
                                     INT, INT64_MAX, INT64_MIN, INT_LIST, LISTS, NUMERIC,
                                     OPT_TENSOR, STR, TENSOR, TENSOR_ATTRS, TENSOR_LIST, TEXT,
                                     EvalError, ExprError, Sym, TensorInfo, format_value,
                                     null_cpp, null_key, HOST_TENSOR, HOST_TENSOR_ATTRS)

__all__ = [
    "INT", "FLOAT", "BOOL", "STR", "TEXT", "INT_LIST", "FLOAT_LIST", "BOOL_LIST", "TENSOR",
    "OPT_TENSOR", "TENSOR_LIST", "HOST_TENSOR", "HOST_TENSOR_ATTRS", "NUMERIC", "LISTS",
    "INT64_MIN", "INT64_MAX", "TENSOR_ATTRS",
    "DTYPE_NAMES", "ExprError", "EvalError", "Sym", "null_key", "null_cpp", "TensorInfo",
    "ABSENT", "format_value", "Builtin", "BUILTINS", "Expr",
]


class Expr:
    """A parsed, type-checked expression bound to the scope it was checked in."""

    def __init__(self, text: str, scope: Mapping[str, Sym]):
        self.text = text
        self.scope = dict(scope)
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as e:
            raise ExprError(f"syntax error in {text!r} at column {e.offset}: {e.msg}; write one "
                            f"Python expression, e.g. 'self.dims[-1] * 2'") from None
        self.node = tree.body
        self.node_types: dict[int, str] = {}  # id(node) -> its checked type
        self.locals: dict[str, str] = {}  # loop variables in scope while checking
        self.type = _check(self, self.node)
        # an argument may share a builtin's name (clamp's `min`): only a called name is
        # the builtin; comprehension variables are not names of the scope
        called = {id(n.func) for n in ast.walk(self.node) if isinstance(n, ast.Call)}
        loop_vars = {g.target.id for n in ast.walk(self.node) if isinstance(n, ast.ListComp)
                     for g in n.generators}
        self.names = sorted({n.id for n in ast.walk(self.node)
                             if isinstance(n, ast.Name) and id(n) not in called} - loop_vars)
        # nullable arguments tested with `is None` (their C++ `<name>_is_null` flags)
        self.null_tests = sorted({n.left.id for n in ast.walk(self.node)
                                  if isinstance(n, ast.Compare)
                                  and isinstance(n.ops[0], (ast.Is, ast.IsNot))})

    def __repr__(self) -> str:
        return f"Expr({self.text!r}: {self.type})"

    def cpp(self) -> str:
        """The expression as C++ text."""
        return _render(self, self.node, top=True)

    def cpp_negated(self) -> str:
        """`not (expression)` as C++ text (a guard's failure test)."""
        return _negated(self, self.node, top=True)

    def evaluate(self, env: Mapping[str, Any]) -> Any:
        """The expression's value; raises EvalError where the C++ rendering throws."""
        return _evaluate(self, self.node, env)
