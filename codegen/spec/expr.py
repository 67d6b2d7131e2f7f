"""The spec expression language.

One restricted subset of Python expressions, parsed with `ast`, used for guards, shape
formulas, Params values, route predicates and grid sizes. Every expression is type
checked against a scope of named symbols, rendered to C++ (against the runtime's
`utils::` helpers) and evaluated in Python with the same semantics:

- integers are int64; `//` and `%` floor like Python (and throw on a zero divisor) on
  both sides; a result outside int64 is an error on both sides (`utils::add/sub/mul`);
- `and`/`or` short-circuit, `a if c else b` is a conditional;
- `t.dims[i]` accepts Python's negative indices and is bounds checked;
- narrowing to u32/i32 happens only when a value is packed, and is checked there.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

INT, FLOAT, BOOL, STR = "int", "float", "bool", "str"
INT_LIST, FLOAT_LIST, BOOL_LIST = "int[]", "float[]", "bool[]"
TENSOR, OPT_TENSOR, TENSOR_LIST = "Tensor", "Tensor?", "Tensor?[]"
NUMERIC = (INT, FLOAT)
LISTS = (INT_LIST, FLOAT_LIST, BOOL_LIST)

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


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

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def numel(self) -> int:
        return math.prod(self.dims)


ABSENT = TensorInfo((), "", present=False)


# --- builtins: name -> (type rule, C++ function, Python function) -----------------------

def _floordiv(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("integer division by zero")
    return a // b


def _floormod(a: int, b: int) -> int:
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


@dataclass(frozen=True)
class Builtin:
    type_rule: Callable[[list[str]], str]
    cpp: str
    py: Callable[..., Any]


def _min_max_rule(args: list[str]) -> str:
    if len(args) == 1 and args[0] == INT_LIST:
        return INT
    if len(args) == 2:
        return _same_numeric(args)
    raise ExprError(f"expects two numbers or one int list, got ({', '.join(args)})")


def _extreme(pick: Callable) -> Callable:
    def fn(*args):
        if len(args) == 1:
            if not args[0]:
                raise EvalError(f"{pick.__name__}() of an empty list")
            return pick(args[0])
        return pick(*args)
    return fn


BUILTINS: dict[str, Builtin] = {
    "min": Builtin(_min_max_rule, "utils::min_of", _extreme(min)),
    "max": Builtin(_min_max_rule, "utils::max_of", _extreme(max)),
    "floor": Builtin(_typed((FLOAT,), INT), "utils::floor_to_int",
                     lambda v: _float_to_int(math.floor(v) if math.isfinite(v) else v)),
    "abs": Builtin(lambda a: _same_numeric(a) if len(a) == 1 else _want(INT)(a),
                   "utils::abs_value", abs),
    "ceil_div": Builtin(_typed((INT, INT), INT), "utils::ceil_div", _ceil_div),
    "float": Builtin(lambda a: FLOAT if len(a) == 1 and a[0] in NUMERIC else _want(INT)(a),
                     "static_cast<double>", float),
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
    "sqrt": Builtin(lambda a: FLOAT if len(a) == 1 and a[0] in NUMERIC else _want(FLOAT)(a),
                    "utils::sqrt_of", _sqrt),
    "permute": Builtin(_typed((INT_LIST, INT_LIST), INT_LIST), "utils::permute", _permute),
    "is_permutation": Builtin(_typed((INT_LIST, INT), BOOL), "utils::is_permutation",
                              _is_permutation),
    "broadcast_strides": Builtin(_typed((INT_LIST, INT_LIST), INT_LIST),
                                 "utils::broadcast_strides", _broadcast_strides),
}

TENSOR_ATTRS = {"dims": INT_LIST, "rank": INT, "numel": INT, "present": BOOL, "dtype": STR}
DTYPE_NAMES = ("float32", "int32", "int64", "bool", "float16", "uint8")

_CMP_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
            ast.GtE: ">="}
_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
            ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
_ARITH_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%",
              ast.Div: "/"}


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
        self._types: dict[int, str] = {}
        self.type = self._check(self.node)
        self.names = sorted({n.id for n in ast.walk(self.node) if isinstance(n, ast.Name)}
                            - set(BUILTINS))
        # nullable arguments tested with `is None` (their C++ `<name>_is_null` flags)
        self.null_tests = sorted({n.left.id for n in ast.walk(self.node)
                                  if isinstance(n, ast.Compare)
                                  and isinstance(n.ops[0], (ast.Is, ast.IsNot))})

    def __repr__(self) -> str:
        return f"Expr({self.text!r}: {self.type})"

    # --- type checking --------------------------------------------------------------
    def _fail(self, node: ast.AST, msg: str) -> ExprError:
        return ExprError(f"in {self.text!r} (column {getattr(node, 'col_offset', 0) + 1}): {msg}")

    def _check(self, node: ast.AST) -> str:
        t = self._check_node(node)
        self._types[id(node)] = t
        return t

    def _check_node(self, node: ast.AST) -> str:
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                return BOOL
            if isinstance(v, int):
                return INT
            if isinstance(v, float):
                return FLOAT
            if isinstance(v, str) and v in DTYPE_NAMES:
                return STR
            raise self._fail(node, f"unsupported constant {v!r} (numbers, True/False, "
                             f"and dtype names {', '.join(DTYPE_NAMES)} only)")
        if isinstance(node, ast.Name):
            if node.id not in self.scope:
                known = ", ".join(sorted(self.scope)) or "none"
                raise self._fail(node, f"unknown name '{node.id}' (known: {known})")
            return self.scope[node.id].type
        if isinstance(node, ast.Attribute):
            base = self._check(node.value)
            if base not in (TENSOR, OPT_TENSOR) or node.attr not in TENSOR_ATTRS:
                raise self._fail(node, f"'.{node.attr}' is not readable on a {base} (tensors "
                                 f"offer .{', .'.join(TENSOR_ATTRS)})")
            return TENSOR_ATTRS[node.attr]
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            base = self._check(node.value)
            sl = node.slice
            if sl.step is not None or base not in LISTS:
                raise self._fail(node, "only list[a:b] slices (no step) are allowed")
            for part in (sl.lower, sl.upper):
                if part is not None and self._check(part) != INT:
                    raise self._fail(node, "slice bounds must be integers")
            return base
        if isinstance(node, ast.Subscript):
            base = self._check(node.value)
            index = self._check(node.slice)
            if base not in LISTS + (TENSOR_LIST,) or index != INT:
                raise self._fail(node, f"only list[int] indexing is allowed (got {base}[{index}])")
            return {INT_LIST: INT, FLOAT_LIST: FLOAT, BOOL_LIST: BOOL, TENSOR_LIST: OPT_TENSOR}[base]
        if isinstance(node, ast.List):
            elems = {self._check(e) for e in node.elts}
            if not elems <= {INT}:
                raise self._fail(node, "list literals hold integers only")
            return INT_LIST
        if isinstance(node, ast.UnaryOp):
            t = self._check(node.operand)
            if isinstance(node.op, ast.Not):
                if t != BOOL:
                    raise self._fail(node, f"'not' needs a bool (got {t})")
                return BOOL
            if isinstance(node.op, ast.USub) and t in NUMERIC:
                return t
            raise self._fail(node, f"unsupported unary operator on {t}")
        if isinstance(node, ast.BinOp):
            op = type(node.op)
            if op not in _ARITH_OPS:
                raise self._fail(node, f"operator {op.__name__} is not allowed")
            a, b = self._check(node.left), self._check(node.right)
            if op is ast.Add and a == b == INT_LIST:
                return INT_LIST  # list concatenation
            if a not in NUMERIC or b not in NUMERIC:
                raise self._fail(node, f"arithmetic needs numbers (got {a} and {b})")
            if op in (ast.FloorDiv, ast.Mod):
                if a != INT or b != INT:
                    raise self._fail(node, "'//' and '%' need integers (use '/' for floats)")
                return INT
            if op is ast.Div:
                if FLOAT not in (a, b):
                    raise self._fail(node, "'/' on two integers is ambiguous: use '//' or float()")
                return FLOAT
            return FLOAT if FLOAT in (a, b) else INT
        if isinstance(node, ast.BoolOp):
            for v in node.values:
                if self._check(v) != BOOL:
                    raise self._fail(v, "'and'/'or' operands must be bool")
            return BOOL
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1:
                raise self._fail(node, "chained comparisons are not allowed: use 'and'")
            if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
                right = node.comparators[0]
                sym = self.scope.get(getattr(node.left, "id", ""))
                if not (isinstance(right, ast.Constant) and right.value is None and sym
                        and sym.nullable):
                    raise self._fail(node, "'is None' / 'is not None' tests a nullable "
                                     "argument by name, e.g. 'output_min is None'")
                return BOOL
            a, b = self._check(node.left), self._check(node.comparators[0])
            op = type(node.ops[0])
            if op not in _CMP_OPS:
                raise self._fail(node, f"comparison {op.__name__} is not allowed")
            same_kind = (a in NUMERIC and b in NUMERIC) or a == b
            if not same_kind or (a in LISTS + (STR, BOOL) and op not in (ast.Eq, ast.NotEq)):
                raise self._fail(node, f"cannot compare {a} with {b} using {_CMP_OPS[op]}")
            return BOOL
        if isinstance(node, ast.IfExp):
            if self._check(node.test) != BOOL:
                raise self._fail(node, "the condition of 'x if c else y' must be bool")
            a, b = self._check(node.body), self._check(node.orelse)
            if a != b:
                raise self._fail(node, f"both branches must have one type (got {a} and {b})")
            return a
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in BUILTINS or node.keywords:
                name = getattr(node.func, "id", ast.unparse(node.func))
                raise self._fail(node, f"unknown function '{name}' (available: "
                                 f"{', '.join(sorted(BUILTINS))})")
            args = [self._check(a) for a in node.args]
            try:
                return BUILTINS[node.func.id].type_rule(args)
            except ExprError as e:
                raise self._fail(node, f"{node.func.id}() {e}") from None
        raise self._fail(node, f"'{ast.unparse(node)}' is not allowed in spec expressions")

    # --- C++ rendering --------------------------------------------------------------
    def cpp(self) -> str:
        return self._cpp(self.node, top=True)

    def _cpp(self, node: ast.AST, top: bool = False) -> str:
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, int):
                return f"int64_t{{{v}}}" if abs(v) > 2**31 - 1 else str(v)
            if isinstance(v, float):
                return repr(v)
            return f"DType::{_dtype_enum(v)}"
        if isinstance(node, ast.Name):
            return self.scope[node.id].cpp
        if isinstance(node, ast.Attribute):
            base = self._cpp(node.value)
            arrow = "->" if self._type_of(node.value) == OPT_TENSOR else "."
            if node.attr == "present":
                return f"({base} != nullptr)"
            if node.attr == "dtype":
                return f"{base}{arrow}dtype"
            return f"{base}{arrow}{node.attr}()"
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            sl = node.slice
            lo = self._cpp(sl.lower, True) if sl.lower is not None else "0"
            hi = self._cpp(sl.upper, True) if sl.upper is not None else "INT64_MAX"
            return f"utils::slice({self._cpp(node.value, True)}, {lo}, {hi})"
        if isinstance(node, ast.Subscript):
            v = node.value
            if isinstance(v, ast.Attribute) and v.attr == "dims":
                base = self._cpp(v.value)
                arrow = "->" if self._type_of(v.value) == OPT_TENSOR else "."
                return f"{base}{arrow}dim({self._cpp(node.slice, top=True)})"
            return f"utils::at({self._cpp(v, top=True)}, {self._cpp(node.slice, top=True)})"
        if isinstance(node, ast.List):
            return "std::vector<int64_t>{" + ", ".join(self._cpp(e, True) for e in node.elts) + "}"
        if isinstance(node, ast.UnaryOp):
            inner = self._cpp(node.operand)
            text = f"!{inner}" if isinstance(node.op, ast.Not) else f"-{inner}"
            return text
        if isinstance(node, ast.BinOp):
            op = _ARITH_OPS[type(node.op)]
            left, right = self._cpp(node.left, True), self._cpp(node.right, True)
            if op == "+" and self._type_of(node) == INT_LIST:
                return f"utils::concat({left}, {right})"
            if op == "//":
                return f"utils::floordiv({left}, {right})"
            if op == "%":
                return f"utils::floormod({left}, {right})"
            if op == "/":
                return f"utils::divide({left}, {right})"
            if self._type_of(node) == INT:  # int64 overflow throws, as in Python
                fn = {"+": "add", "-": "sub", "*": "mul"}[op]
                return f"utils::{fn}({left}, {right})"
            text = f"{self._cpp(node.left)} {op} {self._cpp(node.right)}"
            return text if top else f"({text})"
        if isinstance(node, ast.BoolOp):
            op = " && " if isinstance(node.op, ast.And) else " || "
            text = op.join(self._cpp(v) for v in node.values)
            return text if top else f"({text})"
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            test = null_cpp(node.left.id)
            return test if isinstance(node.ops[0], ast.Is) else f"!{test}"
        if isinstance(node, ast.Compare):
            left, right = self._cpp(node.left), self._cpp(node.comparators[0])
            text = f"{left} {_CMP_OPS[type(node.ops[0])]} {right}"
            return text if top else f"({text})"
        if isinstance(node, ast.IfExp):
            text = f"{self._cpp(node.test)} ? {self._cpp(node.body)} : {self._cpp(node.orelse)}"
            return text if top else f"({text})"
        if isinstance(node, ast.Call):
            fn = BUILTINS[node.func.id]
            args = [self._cpp(a, True) for a in node.args]
            if node.func.id in ("min", "max") and len(set(self._type_of(a) for a in node.args)) > 1:
                args = [f"static_cast<double>({a})" for a in args]
            return f"{fn.cpp}({', '.join(args)})"
        raise AssertionError(ast.dump(node))

    def _type_of(self, node: ast.AST) -> str:
        return self._types[id(node)]

    # --- Python evaluation ----------------------------------------------------------
    def evaluate(self, env: Mapping[str, Any]) -> Any:
        return self._eval(self.node, env)

    def _int(self, v: Any) -> Any:
        if isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX:
            raise EvalError("integer overflow")
        return v

    def _eval(self, node: ast.AST, env: Mapping[str, Any]) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return env[node.id]
        if isinstance(node, ast.Attribute):
            t = self._eval(node.value, env)
            if node.attr == "present":
                return t.present
            if not t.present:
                raise EvalError(f"{self.text!r} reads '.{node.attr}' of an absent optional tensor")
            return list(t.dims) if node.attr == "dims" else getattr(t, node.attr)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            seq = self._eval(node.value, env)
            lo = self._eval(node.slice.lower, env) if node.slice.lower is not None else 0
            hi = self._eval(node.slice.upper, env) if node.slice.upper is not None else INT64_MAX
            return list(seq[lo:hi])
        if isinstance(node, ast.Subscript):
            seq, i = self._eval(node.value, env), self._eval(node.slice, env)
            if not -len(seq) <= i < len(seq):
                raise EvalError(f"{self.text!r}: index {i} out of range for {len(seq)} values")
            return seq[i]
        if isinstance(node, ast.List):
            return [self._eval(e, env) for e in node.elts]
        if isinstance(node, ast.UnaryOp):
            v = self._eval(node.operand, env)
            return (not v) if isinstance(node.op, ast.Not) else self._int(-v)
        if isinstance(node, ast.BinOp):
            a, b = self._eval(node.left, env), self._eval(node.right, env)
            op = type(node.op)
            if op is ast.FloorDiv:
                return self._int(_floordiv(a, b))
            if op is ast.Mod:
                return _floormod(a, b)
            if op is ast.Div:
                if b == 0:
                    raise EvalError("division by zero")
                return float(a) / b
            if isinstance(a, list):
                return list(a) + list(b)
            return self._int({ast.Add: lambda: a + b, ast.Sub: lambda: a - b,
                              ast.Mult: lambda: a * b}[op]())
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                return all(self._eval(v, env) for v in node.values)
            return any(self._eval(v, env) for v in node.values)
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            is_null = bool(env[null_key(node.left.id)])
            return is_null if isinstance(node.ops[0], ast.Is) else not is_null
        if isinstance(node, ast.Compare):
            a, b = self._eval(node.left, env), self._eval(node.comparators[0], env)
            if isinstance(a, (list, tuple)):
                a, b = list(a), list(b)
            return _COMPARE[type(node.ops[0])](a, b)
        if isinstance(node, ast.IfExp):
            return self._eval(node.body if self._eval(node.test, env) else node.orelse, env)
        if isinstance(node, ast.Call):
            args = [self._eval(a, env) for a in node.args]
            result = BUILTINS[node.func.id].py(*args)
            if self._types[id(node)] == FLOAT:
                return float(result)
            if isinstance(result, list):
                return [self._int(v) for v in result]
            return self._int(result)
        raise AssertionError(ast.dump(node))


def _dtype_enum(name: str) -> str:
    return {"float32": "Float32", "int32": "Int32", "int64": "Int64", "bool": "Bool",
            "float16": "Float16", "uint8": "UInt8"}[name]


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
