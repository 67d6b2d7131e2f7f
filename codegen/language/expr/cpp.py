"""The C++ renderer: a checked expression as C++ text against the runtime's `utils::`
helpers, with the same semantics as the Python evaluator.

One function per AST node kind, found through RENDERERS by the node's type. `top` says
the text stands alone (a whole expression, a call argument, an index), so an infix
operation needs no parentheses there. Integer arithmetic goes through utils:: calls that
floor like Python and throw on int64 overflow. A part without names (`0.0 >= 0.0`, which
spec helpers produce by substitution) is written as its value, computed by the Python
evaluator; `negated` writes `not <expr>` the way a person would (`a != b`, not `!(a == b)`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import math

from codegen.graph.dtypes import REGISTRY
from codegen.language.expr.builtins import BUILTINS
from codegen.language.expr.evaluate import evaluate
from codegen.language.expr.types import (ARITH_OPS, BOOL, CMP_OPS, FLOAT, INT, INT64_MIN,
                                     INT_LIST, OPT_TENSOR, TEXT, EvalError, cpp_string,
                                     null_cpp)

if TYPE_CHECKING:
    from codegen.language.expr import Expr

_INT_CALLS = {"+": "add", "-": "sub", "*": "mul"}
_DIVISIONS = {"//": "floordiv", "%": "floormod", "/": "divide"}


def render(ex: Expr, node: ast.AST, top: bool = False) -> str:
    renderer = RENDERERS.get(type(node))
    if renderer is None:
        raise AssertionError(ast.dump(node))
    return _folded(ex, node) or renderer(ex, node, top)


def _folded(ex: Expr, node: ast.AST) -> str | None:
    """A name-free int, float or bool part as its value (None where it has a name, fails to
    evaluate, or is already a literal): the C++ would compute the same value."""
    if isinstance(node, ast.Constant):
        return None
    parts = list(ast.walk(node))
    called = {id(n.func) for n in parts if isinstance(n, ast.Call)}
    if any(isinstance(n, ast.Name) and id(n) not in called for n in parts):
        return None
    kind = ex.node_types[id(node)]
    if kind not in (INT, FLOAT, BOOL):
        return None
    try:
        value = evaluate(ex, node, {})
    except (EvalError, ArithmeticError):
        return None
    if kind == BOOL:
        return "true" if value else "false"
    if kind == FLOAT:
        return repr(float(value)) if math.isfinite(value) else None
    if value == INT64_MIN:  # no C++ literal spells it
        return None
    return f"int64_t{{{value}}}" if abs(value) > 2**31 - 1 else str(value)


_NEGATED_CMP = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
                ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
                ast.In: ast.NotIn, ast.NotIn: ast.In}


def negated(ex: Expr, node: ast.AST, top: bool = False) -> str:
    """C++ for `not <node>`: a double negation cancels, and/or follow De Morgan (evaluation
    order and short-circuits unchanged), a comparison flips (an ordering only on integers:
    `not f < 1.0` holds for NaN, `f >= 1.0` does not)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return render(ex, node.operand, top)
    if isinstance(node, ast.BoolOp):
        op = " || " if isinstance(node.op, ast.And) else " && "
        return _wrap(op.join(negated(ex, v) for v in node.values), top)
    if isinstance(node, ast.Compare):
        flipped = _NEGATED_CMP[type(node.ops[0])]
        ordering = flipped in (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
        operands = (node.left, *node.comparators)
        if not ordering or all(ex.node_types.get(id(o)) != FLOAT for o in operands):
            flip = ast.Compare(left=node.left, ops=[flipped()], comparators=node.comparators)
            ex.node_types[id(flip)] = BOOL
            try:
                return render(ex, flip, top)
            finally:
                del ex.node_types[id(flip)]
    if isinstance(node, ast.Attribute) and node.attr == "present":
        return _wrap(f"{render(ex, node.value)} == nullptr", top)
    folded = _folded(ex, node)
    if folded is not None:
        return "false" if folded == "true" else "true"
    return f"!{render(ex, node)}"


def _wrap(text: str, top: bool) -> str:
    return text if top else f"({text})"


def _arrow(ex: Expr, tensor: ast.AST) -> str:
    """How C++ reads a member of a tensor: optional tensors are pointers."""
    return "->" if ex.node_types[id(tensor)] == OPT_TENSOR else "."


def _constant(ex: Expr, node: ast.Constant, top: bool) -> str:
    v = node.value
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"int64_t{{{v}}}" if abs(v) > 2**31 - 1 else str(v)
    if isinstance(v, float):
        return repr(v)
    if ex.node_types[id(node)] == TEXT:
        return cpp_string(v)
    return f"DType::{REGISTRY[v].cpp}"


def _name(ex: Expr, node: ast.Name, top: bool) -> str:
    return ex.scope[node.id].cpp if node.id in ex.scope else loop_var(node.id)


def loop_var(name: str) -> str:
    """A comprehension's loop variable in C++ (prefixed, as its accumulator `_values`, so
    that neither hides a handler name the expression reads)."""
    return f"_{name}"


def _attribute(ex: Expr, node: ast.Attribute, top: bool) -> str:
    base = render(ex, node.value)
    if node.attr == "present":
        return f"({base} != nullptr)"
    if node.attr == "dtype":
        return f"{base}{_arrow(ex, node.value)}dtype"
    return f"{base}{_arrow(ex, node.value)}{node.attr}()"


def _subscript(ex: Expr, node: ast.Subscript, top: bool) -> str:
    v = node.value
    if isinstance(node.slice, ast.Slice):
        sl = node.slice
        lo = render(ex, sl.lower, True) if sl.lower is not None else "0"
        hi = render(ex, sl.upper, True) if sl.upper is not None else "INT64_MAX"
        return f"utils::slice({render(ex, v, True)}, {lo}, {hi})"
    if isinstance(v, ast.Attribute) and v.attr == "dims":
        base = render(ex, v.value)
        return f"{base}{_arrow(ex, v.value)}dim({render(ex, node.slice, True)})"
    return f"utils::at({render(ex, v, True)}, {render(ex, node.slice, True)})"


def _list(ex: Expr, node: ast.List, top: bool) -> str:
    return "std::vector<int64_t>{" + ", ".join(render(ex, e, True) for e in node.elts) + "}"


def _unary(ex: Expr, node: ast.UnaryOp, top: bool) -> str:
    if isinstance(node.op, ast.Not):
        return negated(ex, node.operand, top)
    return f"-{render(ex, node.operand)}"


def _binary(ex: Expr, node: ast.BinOp, top: bool) -> str:
    op = ARITH_OPS[type(node.op)]
    result = ex.node_types[id(node)]
    left, right = render(ex, node.left, True), render(ex, node.right, True)
    if op == "+" and result == INT_LIST:
        return f"utils::concat({left}, {right})"
    if op in _DIVISIONS:
        return f"utils::{_DIVISIONS[op]}({left}, {right})"
    if result == INT:  # int64 overflow throws, as in Python
        return f"utils::{_INT_CALLS[op]}({left}, {right})"
    return _wrap(f"{render(ex, node.left)} {op} {render(ex, node.right)}", top)


def _bool_op(ex: Expr, node: ast.BoolOp, top: bool) -> str:
    op = " && " if isinstance(node.op, ast.And) else " || "
    return _wrap(op.join(render(ex, v) for v in node.values), top)


def _compare(ex: Expr, node: ast.Compare, top: bool) -> str:
    if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
        test = null_cpp(node.left.id)
        return test if isinstance(node.ops[0], ast.Is) else f"!{test}"
    if isinstance(node.ops[0], (ast.In, ast.NotIn)):
        test = (f"utils::contains({render(ex, node.comparators[0], True)}, "
                f"{render(ex, node.left, True)})")
        return test if isinstance(node.ops[0], ast.In) else f"!{test}"
    left, right = render(ex, node.left), render(ex, node.comparators[0])
    return _wrap(f"{left} {CMP_OPS[type(node.ops[0])]} {right}", top)


def _if_exp(ex: Expr, node: ast.IfExp, top: bool) -> str:
    test = _folded(ex, node.test)
    if test is not None:  # a fixed condition: the branch it picks (both have one type)
        return render(ex, node.body if test == "true" else node.orelse, top)
    body, orelse = render(ex, node.body), render(ex, node.orelse)
    if body == orelse and _cannot_fail(ex, node.test):
        return render(ex, node.body, top)
    return _wrap(f"{render(ex, node.test)} ? {body} : {orelse}", top)


def _cannot_fail(ex: Expr, node: ast.AST) -> bool:
    """Whether evaluating `node` can raise nothing: no call, index, arithmetic, or member of
    an optional tensor but `present`."""
    return not any(isinstance(n, (ast.Call, ast.Subscript, ast.BinOp, ast.ListComp))
                   or (isinstance(n, ast.Attribute) and n.attr != "present"
                       and ex.node_types.get(id(n.value)) == OPT_TENSOR)
                   for n in ast.walk(node))


def _call(ex: Expr, node: ast.Call, top: bool) -> str:
    fn = BUILTINS[node.func.id]
    args = [render(ex, a, True) for a in node.args]
    # min/max of an int and a float compare as doubles
    if node.func.id in ("min", "max") and len({ex.node_types[id(a)] for a in node.args}) > 1:
        args = [f"static_cast<double>({a})" for a in args]
    return f"{fn.cpp}({', '.join(args)})"


def _list_comp(ex: Expr, node: ast.ListComp, top: bool) -> str:
    """An immediately invoked lambda that loops and pushes (int64 elements)."""
    gen = node.generators[0]
    var = loop_var(gen.target.id)
    push = f"_values.push_back({render(ex, node.elt, True)});"
    if gen.ifs:
        push = f"if ({render(ex, gen.ifs[0], True)}) {push}"
    used = any(isinstance(n, ast.Name) and n.id == gen.target.id
               for part in (node.elt, *gen.ifs) for n in ast.walk(part))
    declared = f"const auto& {var}" if used else f"[[maybe_unused]] const auto& {var}"
    return (f"[&]() {{ std::vector<int64_t> _values; for ({declared} : "
            f"{render(ex, gen.iter, True)}) {{ {push} }} return _values; }}()")


RENDERERS = {ast.Constant: _constant, ast.Name: _name, ast.Attribute: _attribute,
             ast.Subscript: _subscript, ast.List: _list, ast.UnaryOp: _unary,
             ast.BinOp: _binary, ast.BoolOp: _bool_op, ast.Compare: _compare,
             ast.IfExp: _if_exp, ast.Call: _call, ast.ListComp: _list_comp}
