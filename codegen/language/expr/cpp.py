"""The C++ renderer: a checked expression as C++ text against the runtime's `utils::`
helpers, with the same semantics as the Python evaluator.

One function per AST node kind, found through RENDERERS by the node's type. `top` says
the text stands alone (a whole expression, a call argument, an index), so an infix
operation needs no parentheses there. Integer arithmetic goes through utils:: calls that
floor like Python and throw on int64 overflow.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from codegen.graph.dtypes import REGISTRY
from codegen.language.expr.builtins import BUILTINS
from codegen.language.expr.types import (ARITH_OPS, CMP_OPS, INT, INT_LIST, OPT_TENSOR, TEXT,
                                     cpp_string, null_cpp)

if TYPE_CHECKING:
    from codegen.language.expr import Expr

_INT_CALLS = {"+": "add", "-": "sub", "*": "mul"}
_DIVISIONS = {"//": "floordiv", "%": "floormod", "/": "divide"}


def render(ex: Expr, node: ast.AST, top: bool = False) -> str:
    renderer = RENDERERS.get(type(node))
    if renderer is None:
        raise AssertionError(ast.dump(node))
    return renderer(ex, node, top)


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
    inner = render(ex, node.operand)
    return f"!{inner}" if isinstance(node.op, ast.Not) else f"-{inner}"


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
    text = f"{render(ex, node.test)} ? {render(ex, node.body)} : {render(ex, node.orelse)}"
    return _wrap(text, top)


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
