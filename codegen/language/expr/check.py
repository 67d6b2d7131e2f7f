"""The type checker: the type of every node of an expression, or an ExprError saying why
the expression is not part of the language.

One function per AST node kind, found through CHECKS by the node's type; a node kind
missing from the table is not allowed. `check` records each node's type in the
expression's `node_types`, which the C++ renderer and the evaluator read.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from codegen.language.expr.builtins import BUILTINS
from codegen.language.expr.types import (ARITH_OPS, BOOL, BOOL_LIST, CMP_OPS, DTYPE_NAMES, FLOAT,
                                     FLOAT_LIST, INT, INT_LIST, LISTS, NUMERIC, OPT_TENSOR, STR,
                                     TENSOR, TENSOR_ATTRS, TENSOR_LIST, TEXT, ExprError,
                                     HOST_TENSOR, HOST_TENSOR_ATTRS)

if TYPE_CHECKING:
    from codegen.language.expr import Expr

_ELEMENT = {INT_LIST: INT, FLOAT_LIST: FLOAT, BOOL_LIST: BOOL, TENSOR_LIST: OPT_TENSOR}


def fail(ex: Expr, node: ast.AST, msg: str) -> ExprError:
    return ExprError(f"in {ex.text!r} (column {getattr(node, 'col_offset', 0) + 1}): {msg}")


def check(ex: Expr, node: ast.AST) -> str:
    rule = CHECKS.get(type(node))
    if rule is None:
        raise fail(ex, node, f"'{ast.unparse(node)}' is not allowed in spec expressions")
    t = rule(ex, node)
    ex.node_types[id(node)] = t
    return t


def _constant(ex: Expr, node: ast.Constant) -> str:
    v = node.value
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, float):
        return FLOAT
    if isinstance(v, str):
        return STR if v in DTYPE_NAMES else TEXT
    raise fail(ex, node, f"unsupported constant {v!r} (numbers, True/False and strings only)")


def _name(ex: Expr, node: ast.Name) -> str:
    if node.id in ex.locals:
        return ex.locals[node.id]
    if node.id not in ex.scope:
        known = ", ".join(sorted(ex.scope)) or "none"
        raise fail(ex, node, f"unknown name '{node.id}' (known: {known})")
    return ex.scope[node.id].type


def _attribute(ex: Expr, node: ast.Attribute) -> str:
    base = check(ex, node.value)
    attrs = HOST_TENSOR_ATTRS if base == HOST_TENSOR else TENSOR_ATTRS
    if base not in (TENSOR, OPT_TENSOR, HOST_TENSOR) or node.attr not in attrs:
        hint = " (.values needs Tensor(host=True))" if node.attr == "values" else ""
        raise fail(ex, node, f"'.{node.attr}' is not readable on a {base} (tensors "
                   f"offer .{', .'.join(attrs)}){hint}")
    return attrs[node.attr]


def _subscript(ex: Expr, node: ast.Subscript) -> str:
    if isinstance(node.slice, ast.Slice):
        return _slice(ex, node)
    base = check(ex, node.value)
    index = check(ex, node.slice)
    if base not in LISTS + (TENSOR_LIST,) or index != INT:
        raise fail(ex, node, f"only list[int] indexing is allowed (got {base}[{index}])")
    return _ELEMENT[base]


def _slice(ex: Expr, node: ast.Subscript) -> str:
    base = check(ex, node.value)
    sl = node.slice
    if sl.step is not None or base not in LISTS:
        raise fail(ex, node, "only list[a:b] slices (no step) are allowed")
    for part in (sl.lower, sl.upper):
        if part is not None and check(ex, part) != INT:
            raise fail(ex, node, "slice bounds must be integers")
    return base


def _list(ex: Expr, node: ast.List) -> str:
    elems = {check(ex, e) for e in node.elts}
    if not elems <= {INT}:
        raise fail(ex, node, "list literals hold integers only")
    return INT_LIST


def _unary(ex: Expr, node: ast.UnaryOp) -> str:
    t = check(ex, node.operand)
    if isinstance(node.op, ast.Not):
        if t != BOOL:
            raise fail(ex, node, f"'not' needs a bool (got {t})")
        return BOOL
    if isinstance(node.op, ast.USub) and t in NUMERIC:
        return t
    raise fail(ex, node, f"unsupported unary operator on {t}")


def _binary(ex: Expr, node: ast.BinOp) -> str:
    op = type(node.op)
    if op not in ARITH_OPS:
        raise fail(ex, node, f"operator {op.__name__} is not allowed")
    a, b = check(ex, node.left), check(ex, node.right)
    if op is ast.Add and a == b == INT_LIST:
        return INT_LIST  # list concatenation
    if a not in NUMERIC or b not in NUMERIC:
        raise fail(ex, node, f"arithmetic needs numbers (got {a} and {b})")
    if op in (ast.FloorDiv, ast.Mod):
        if a != INT or b != INT:
            raise fail(ex, node, "'//' and '%' need integers (use '/' for floats)")
        return INT
    if op is ast.Div:
        if FLOAT not in (a, b):
            raise fail(ex, node, "'/' on two integers is ambiguous: use '//' or float()")
        return FLOAT
    return FLOAT if FLOAT in (a, b) else INT


def _bool_op(ex: Expr, node: ast.BoolOp) -> str:
    for v in node.values:
        if check(ex, v) != BOOL:
            raise fail(ex, v, "'and'/'or' operands must be bool")
    return BOOL


def _compare(ex: Expr, node: ast.Compare) -> str:
    if len(node.ops) != 1:
        raise fail(ex, node, "chained comparisons are not allowed: use 'and'")
    if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
        return _is_none(ex, node)
    a, b = check(ex, node.left), check(ex, node.comparators[0])
    op = type(node.ops[0])
    if op in (ast.In, ast.NotIn):
        if a != INT or b != INT_LIST:
            raise fail(ex, node, f"'in' tests an int in an int list (got {a} in {b})")
        return BOOL
    if op not in CMP_OPS:
        raise fail(ex, node, f"comparison {op.__name__} is not allowed")
    a, b = _as_text(ex, node.left, a, b), _as_text(ex, node.comparators[0], b, a)
    same_kind = (a in NUMERIC and b in NUMERIC) or a == b
    if not same_kind or (a in LISTS + (STR, TEXT, BOOL) and op not in (ast.Eq, ast.NotEq)):
        raise fail(ex, node, f"cannot compare {a} with {b} using {CMP_OPS[op]}")
    return BOOL


def _as_text(ex: Expr, node: ast.AST, own: str, other: str) -> str:
    """A dtype-named string literal compared with TEXT is TEXT (rendered as a string)."""
    if own == STR and other == TEXT and isinstance(node, ast.Constant):
        ex.node_types[id(node)] = TEXT
        return TEXT
    return own


def _is_none(ex: Expr, node: ast.Compare) -> str:
    right = node.comparators[0]
    name = getattr(node.left, "id", "")
    sym = ex.scope.get(name)
    if isinstance(node.left, ast.Name) and sym is None:
        check(ex, node.left)  # an unknown name: reported with the names the spec offers
    if not (isinstance(right, ast.Constant) and right.value is None and sym and sym.nullable):
        nullable = ", ".join(sorted(k for k, v in ex.scope.items() if v.nullable)) or "none"
        raise fail(ex, node, "'is None' / 'is not None' must name a nullable argument, "
                   f"e.g. 'output_min is None' (nullable here: {nullable})")
    return BOOL


def _if_exp(ex: Expr, node: ast.IfExp) -> str:
    if check(ex, node.test) != BOOL:
        raise fail(ex, node, "the condition of 'x if c else y' must be bool")
    a, b = check(ex, node.body), check(ex, node.orelse)
    if a != b:
        raise fail(ex, node, f"both branches must have one type (got {a} and {b})")
    return a


def _call(ex: Expr, node: ast.Call) -> str:
    if not isinstance(node.func, ast.Name) or node.func.id not in BUILTINS or node.keywords:
        name = getattr(node.func, "id", ast.unparse(node.func))
        raise fail(ex, node, f"unknown function '{name}' (available: "
                   f"{', '.join(sorted(BUILTINS))})")
    args = [check(ex, a) for a in node.args]
    try:
        return BUILTINS[node.func.id].type_rule(args)
    except ExprError as e:
        raise fail(ex, node, f"{node.func.id}() {e}") from None


def _list_comp(ex: Expr, node: ast.ListComp) -> str:
    """[elt for v in xs if cond]: one generator over an int list or a tensor list, at most
    one condition, int elements. The loop variable is a new name, visible only inside."""
    if len(node.generators) != 1 or node.generators[0].is_async:
        raise fail(ex, node, "a list comprehension takes one 'for' (no nesting)")
    gen = node.generators[0]
    if not isinstance(gen.target, ast.Name) or len(gen.ifs) > 1:
        raise fail(ex, node, "write [elt for name in list] or [elt for name in list if cond]")
    var = gen.target.id
    if var in ex.scope or var in ex.locals:
        raise fail(ex, node, f"the loop variable '{var}' hides a name already in scope; "
                   f"pick another")
    source = check(ex, gen.iter)
    if source not in (INT_LIST, TENSOR_LIST):
        raise fail(ex, node, f"a list comprehension iterates an int list or a tensor list "
                   f"(got {source})")
    ex.locals[var] = _ELEMENT[source]
    try:
        ex.node_types[id(gen.target)] = ex.locals[var]
        for cond in gen.ifs:
            if check(ex, cond) != BOOL:
                raise fail(ex, cond, "the condition of a list comprehension must be bool")
        if check(ex, node.elt) != INT:
            raise fail(ex, node.elt, "list comprehensions build int lists (the element "
                       "must be an int)")
    finally:
        del ex.locals[var]
    return INT_LIST


CHECKS = {ast.Constant: _constant, ast.Name: _name, ast.Attribute: _attribute,
          ast.Subscript: _subscript, ast.List: _list, ast.UnaryOp: _unary, ast.BinOp: _binary,
          ast.BoolOp: _bool_op, ast.Compare: _compare, ast.IfExp: _if_exp, ast.Call: _call, ast.ListComp: _list_comp}
