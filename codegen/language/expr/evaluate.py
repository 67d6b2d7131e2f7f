"""The Python evaluator: a checked expression's value in an environment (argument name
-> value, `null_key(name)` -> whether a nullable argument is None).

One function per AST node kind, found through EVALUATORS by the node's type. Every
integer result is checked against int64 and every failure the C++ rendering throws on
raises EvalError here, so both sides agree on values and on errors.
"""

from __future__ import annotations

import ast
import operator
from typing import TYPE_CHECKING, Any, Mapping

from codegen.language.expr.builtins import BUILTINS, floordiv, floormod
from codegen.language.expr.types import COMPARE, FLOAT, INT64_MAX, EvalError, check_int, null_key

if TYPE_CHECKING:
    from codegen.language.expr import Expr

_ARITH = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def evaluate(ex: Expr, node: ast.AST, env: Mapping[str, Any]) -> Any:
    evaluator = EVALUATORS.get(type(node))
    if evaluator is None:
        raise AssertionError(ast.dump(node))
    return evaluator(ex, node, env)


def _constant(ex: Expr, node: ast.Constant, env: Mapping[str, Any]) -> Any:
    return node.value


def _name(ex: Expr, node: ast.Name, env: Mapping[str, Any]) -> Any:
    return env[node.id]


def _attribute(ex: Expr, node: ast.Attribute, env: Mapping[str, Any]) -> Any:
    t = evaluate(ex, node.value, env)
    if node.attr == "present":
        return t.present
    if not t.present:
        raise EvalError(f"{ex.text!r} reads '.{node.attr}' of an absent optional tensor")
    if node.attr in ("dims", "values"):
        return list(getattr(t, node.attr))
    return getattr(t, node.attr)


def _subscript(ex: Expr, node: ast.Subscript, env: Mapping[str, Any]) -> Any:
    if isinstance(node.slice, ast.Slice):
        seq = evaluate(ex, node.value, env)
        lo = evaluate(ex, node.slice.lower, env) if node.slice.lower is not None else 0
        hi = evaluate(ex, node.slice.upper, env) if node.slice.upper is not None else INT64_MAX
        return list(seq[lo:hi])
    seq, i = evaluate(ex, node.value, env), evaluate(ex, node.slice, env)
    if not -len(seq) <= i < len(seq):
        raise EvalError(f"index {i} out of range for {len(seq)} values")  # utils::at's text
    return seq[i]


def _list(ex: Expr, node: ast.List, env: Mapping[str, Any]) -> Any:
    return [evaluate(ex, e, env) for e in node.elts]


def _unary(ex: Expr, node: ast.UnaryOp, env: Mapping[str, Any]) -> Any:
    v = evaluate(ex, node.operand, env)
    return (not v) if isinstance(node.op, ast.Not) else check_int(-v)


def _binary(ex: Expr, node: ast.BinOp, env: Mapping[str, Any]) -> Any:
    a, b = evaluate(ex, node.left, env), evaluate(ex, node.right, env)
    op = type(node.op)
    if op is ast.FloorDiv:
        return check_int(floordiv(a, b))
    if op is ast.Mod:
        return floormod(a, b)
    if op is ast.Div:
        if b == 0:
            raise EvalError("division by zero")
        return float(a) / b
    if isinstance(a, list):
        return list(a) + list(b)
    return check_int(_ARITH[op](a, b))


def _bool_op(ex: Expr, node: ast.BoolOp, env: Mapping[str, Any]) -> Any:
    if isinstance(node.op, ast.And):
        return all(evaluate(ex, v, env) for v in node.values)
    return any(evaluate(ex, v, env) for v in node.values)


def _compare(ex: Expr, node: ast.Compare, env: Mapping[str, Any]) -> Any:
    if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
        is_null = bool(env[null_key(node.left.id)])
        return is_null if isinstance(node.ops[0], ast.Is) else not is_null
    a, b = evaluate(ex, node.left, env), evaluate(ex, node.comparators[0], env)
    if isinstance(node.ops[0], (ast.In, ast.NotIn)):
        return (a in b) == isinstance(node.ops[0], ast.In)
    if isinstance(a, (list, tuple)):
        a, b = list(a), list(b)
    return COMPARE[type(node.ops[0])](a, b)


def _if_exp(ex: Expr, node: ast.IfExp, env: Mapping[str, Any]) -> Any:
    return evaluate(ex, node.body if evaluate(ex, node.test, env) else node.orelse, env)


def _call(ex: Expr, node: ast.Call, env: Mapping[str, Any]) -> Any:
    args = [evaluate(ex, a, env) for a in node.args]
    result = BUILTINS[node.func.id].py(*args)
    if ex.node_types[id(node)] == FLOAT:
        return float(result)
    if isinstance(result, list):
        return [check_int(v) for v in result]
    return check_int(result)


def _list_comp(ex: Expr, node: ast.ListComp, env: Mapping[str, Any]) -> Any:
    gen = node.generators[0]
    out = []
    for v in evaluate(ex, gen.iter, env):
        inner = {**env, gen.target.id: v}
        if all(evaluate(ex, c, inner) for c in gen.ifs):
            out.append(evaluate(ex, node.elt, inner))
    return out


EVALUATORS = {ast.Constant: _constant, ast.Name: _name, ast.Attribute: _attribute,
              ast.Subscript: _subscript, ast.List: _list, ast.UnaryOp: _unary,
              ast.BinOp: _binary, ast.BoolOp: _bool_op, ast.Compare: _compare,
              ast.IfExp: _if_exp, ast.Call: _call, ast.ListComp: _list_comp}
