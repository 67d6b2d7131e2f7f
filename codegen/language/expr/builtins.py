"""The builtin functions an expression may call.

One table, BUILTINS: each name has a type rule (argument types -> result type, raising
ExprError with the reason), the C++ function it renders to (in the runtime's utils.h) and
the Python function that evaluates it. The Python functions raise EvalError exactly where
their C++ counterparts throw, so the two sides agree on errors as well as on values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from codegen.language.expr.types import (BOOL, FLOAT, INT, INT64_MIN, INT_LIST, LISTS, NUMERIC,
                                     TENSOR_LIST, EvalError, ExprError, format_value)


# --- Python implementations ------------------------------------------------------------

def floordiv(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("integer division by zero")
    return a // b


def floormod(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("integer modulo by zero")
    return a % b


def _ceil_div(a: int, b: int) -> int:
    if b <= 0:
        raise EvalError(f"ceil_div divisor must be positive (got {b})")
    return -((-a) // b)


def _broadcast_shape(a: list[int], b: list[int]) -> list[int]:
    n = max(len(a), len(b))
    pa = [1] * (n - len(a)) + list(a)
    pb = [1] * (n - len(b)) + list(b)
    out = []
    for x, y in zip(pa, pb):
        if x != y and x != 1 and y != 1:
            raise EvalError(f"shapes {list(a)} and {list(b)} do not broadcast")
        out.append(y if x == 1 else x)
    return out


def _broadcasts(a: list[int], b: list[int]) -> bool:
    """Whether `a` and `b` broadcast (right-aligned dims equal or 1)."""
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(list(a)), reversed(list(b))))


def _right_align(values: list[int], n: int, fill: int) -> list[int]:
    if len(values) > n:
        raise EvalError(f"right_align: {len(values)} values do not fit {n} slots")
    return [fill] * (n - len(values)) + list(values)


def _contiguous_strides(dims: list[int]) -> list[int]:
    strides, acc = [], 1
    for d in reversed(list(dims)):
        strides.append(acc)
        acc *= d
    return strides[::-1]


def _broadcast_strides(dims: list[int], out_dims: list[int]) -> list[int]:
    """Strides of `dims` read at `out_dims` coordinates: 0 on broadcast dims."""
    aligned = _right_align(dims, len(out_dims), 1)
    strides = _contiguous_strides(aligned)
    return [0 if d == 1 and o != 1 else s for d, o, s in zip(aligned, out_dims, strides)]


def _sqrt(v: float) -> float:
    if not v >= 0.0:
        raise EvalError(f"sqrt of a negative number (got {format_value(float(v))})")
    return math.sqrt(v)


def _permute(values: list[int], order: list[int]) -> list[int]:
    """[values[order[0]], values[order[1]], ...]; negative entries count from the end."""
    out = []
    for i in order:
        if not -len(values) <= i < len(values):
            raise EvalError(f"permute: index {i} out of range for {len(values)} values")
        out.append(values[i])
    return out


def _is_permutation(order: list[int], n: int) -> bool:
    """Whether `order` names each of 0..n-1 exactly once (negatives wrap like dims)."""
    if len(order) != n:
        return False
    seen = set()
    for d in order:
        if not -n <= d < n:
            return False
        seen.add(d + n if d < 0 else d)
    return len(seen) == n


def _normalize_dims(dims: list[int], rank: int) -> list[int]:
    """Dims as non-negative indices (a negative one counts from the end); every dim must
    lie in -rank..rank-1."""
    for d in dims:
        if not -rank <= d < rank:
            raise EvalError(f"dim {d} out of range for rank {rank}")
    return [d + rank if d < 0 else d for d in dims]


def _ones(n: int) -> list[int]:
    if n < 0:
        raise EvalError(f"ones: negative length {n}")
    return [1] * n


def _replace_at(values: list[int], i: int, v: int) -> list[int]:
    if not -len(values) <= i < len(values):
        raise EvalError(f"index {i} out of range for {len(values)} values")
    out = list(values)
    out[i] = v
    return out


def _infer_size(size: list[int], numel: int) -> list[int]:
    """`size` with its single -1 replaced by what makes `numel` elements; any other
    size (two -1s, no fit) comes back unchanged for a guard to reject."""
    known = math.prod(s for s in size if s != -1)
    if list(size).count(-1) != 1 or known <= 0 or numel % known:
        return list(size)
    return [numel // known if s == -1 else s for s in size]


def _float_to_int(v: float) -> int:
    if not (math.isfinite(v) and INT64_MIN <= v < 2.0**63):
        raise EvalError(f"{v} does not fit int64")
    return int(v)


def _floor(v: float) -> int:
    return _float_to_int(math.floor(v) if math.isfinite(v) else v)


def _extreme(pick: Callable) -> Callable:
    """min/max of two values, or of the one list given."""
    def fn(*args):
        if len(args) == 1:
            if not args[0]:
                raise EvalError(f"{pick.__name__}() of an empty list")
            return pick(args[0])
        return pick(*args)
    return fn


# --- type rules ------------------------------------------------------------------------

def _same_numeric(args: list[str]) -> str:
    if not all(a in NUMERIC for a in args):
        raise ExprError(f"expects numbers, got {', '.join(args)}")
    return FLOAT if FLOAT in args else INT


def _want(*expected: str) -> Callable[[list[str]], None]:
    def check(args: list[str]) -> None:
        if list(args) != list(expected):
            raise ExprError(f"expects ({', '.join(expected)}), got ({', '.join(args)})")
    return check


def _typed(expected: tuple[str, ...], result: str) -> Callable[[list[str]], str]:
    def rule(args: list[str]) -> str:
        _want(*expected)(args)
        return result
    return rule


def _list_elem(args: list[str]) -> str:
    if len(args) != 1 or args[0] not in LISTS + (TENSOR_LIST,):
        raise ExprError(f"expects one list, got ({', '.join(args)})")
    return args[0]


def _min_max_rule(args: list[str]) -> str:
    if len(args) == 1 and args[0] == INT_LIST:
        return INT
    if len(args) == 2:
        return _same_numeric(args)
    raise ExprError(f"expects two numbers or one int list, got ({', '.join(args)})")


def _to_float_rule(fallback: str) -> Callable[[list[str]], str]:
    """One number gives a float; anything else is reported as wanting `fallback`."""
    def rule(args: list[str]) -> str:
        return FLOAT if len(args) == 1 and args[0] in NUMERIC else _want(fallback)(args)
    return rule


# --- the table -------------------------------------------------------------------------

@dataclass(frozen=True)
class Builtin:
    type_rule: Callable[[list[str]], str]
    cpp: str
    py: Callable[..., Any]


BUILTINS: dict[str, Builtin] = {
    "min": Builtin(_min_max_rule, "utils::min_of", _extreme(min)),
    "max": Builtin(_min_max_rule, "utils::max_of", _extreme(max)),
    "floor": Builtin(_typed((FLOAT,), INT), "utils::floor_to_int", _floor),
    "abs": Builtin(lambda a: _same_numeric(a) if len(a) == 1 else _want(INT)(a),
                   "utils::abs_value", abs),
    "ceil_div": Builtin(_typed((INT, INT), INT), "utils::ceil_div", _ceil_div),
    "float": Builtin(_to_float_rule(INT), "static_cast<double>", float),
    "len": Builtin(lambda a: (_list_elem(a), INT)[1], "utils::length", len),
    "prod": Builtin(_typed((INT_LIST,), INT), "utils::prod", lambda v: math.prod(v)),
    "sum": Builtin(_typed((INT_LIST,), INT), "utils::sum", lambda v: sum(v)),
    "range": Builtin(_typed((INT,), INT_LIST), "utils::range", lambda n: list(range(n))),
    "replace_at": Builtin(_typed((INT_LIST, INT, INT), INT_LIST), "utils::replace_at",
                          _replace_at),
    "infer_size": Builtin(_typed((INT_LIST, INT), INT_LIST), "utils::infer_size", _infer_size),
    "broadcast_shape": Builtin(_typed((INT_LIST, INT_LIST), INT_LIST),
                               "utils::broadcast_shape", _broadcast_shape),
    "broadcasts": Builtin(_typed((INT_LIST, INT_LIST), BOOL), "utils::broadcasts", _broadcasts),
    "right_align": Builtin(_typed((INT_LIST, INT, INT), INT_LIST), "utils::right_align",
                           _right_align),
    "contiguous_strides": Builtin(_typed((INT_LIST,), INT_LIST), "utils::contiguous_strides",
                                  _contiguous_strides),
    "sqrt": Builtin(_to_float_rule(FLOAT), "utils::sqrt_of", _sqrt),
    "permute": Builtin(_typed((INT_LIST, INT_LIST), INT_LIST), "utils::permute", _permute),
    "is_permutation": Builtin(_typed((INT_LIST, INT), BOOL), "utils::is_permutation",
                              _is_permutation),
    "normalize_dims": Builtin(_typed((INT_LIST, INT), INT_LIST), "utils::normalize_dims",
                              _normalize_dims),
    "ones": Builtin(_typed((INT,), INT_LIST), "utils::ones", _ones),
    "broadcast_strides": Builtin(_typed((INT_LIST, INT_LIST), INT_LIST),
                                 "utils::broadcast_strides", _broadcast_strides),
}
