"""The expression language: Python evaluation and the C++ rendering agree.

Each expression is rendered to C++, compiled with g++ against the runtime's utils.h and
evaluated on the same random inputs (negatives, zeros and boundaries included) as the
Python evaluator; results, and whether an error occurred, must match exactly. Every bool
expression is also rendered negated (a guard's failure test) and must give `not` its value.
"""

import random
import subprocess
from pathlib import Path

import pytest

from codegen.language import expr as E

ROOT = Path(__file__).resolve().parents[1]
SCOPE = {"a": E.Sym(E.INT, "a"), "b": E.Sym(E.INT, "b"), "c": E.Sym(E.INT, "c"),
         "f": E.Sym(E.FLOAT, "f"), "flag": E.Sym(E.BOOL, "flag"),
         "xs": E.Sym(E.INT_LIST, "xs"), "ys": E.Sym(E.INT_LIST, "ys")}

EXPRESSIONS = [
    "a // b", "a % b", "-a // 3", "a % -3", "(a + b) * c - 7", "ceil_div(a, b)",
    "min(a, b)", "max(a, c)", "min(xs)", "max(ys)", "abs(a - b)", "abs(f)", "len(xs)",
    "prod(xs)", "xs[a % 3]", "xs[-1]", "xs[a]", "a if flag else b", "a > b and not flag",
    "a == b or c <= 0", "xs == ys", "xs != [1, 2, 3]", "f * a + 0.5", "a / f",
    "float(a) / 4.0", "floor(f * 3.0)", "floor(a / 3.0)", "min(f, a)", "len(xs[1:])",
    "xs[a:b]", "prod(xs[-2:])", "right_align(xs, 5, 1)", "contiguous_strides(xs)",
    "broadcast_shape(xs, ys)", "broadcast_strides(xs, broadcast_shape(xs, ys))",
    "ys[1:] == xs[:2]", "max(a, b) // max(c, 1) % 7",
    "sqrt(f)", "sqrt(float(a))", "1.0 / sqrt(float(b))", "xs + ys", "len(xs + [a])",
    "(xs + ys)[:3]", "permute(xs, ys)", "permute(xs, [-1, 0])", "is_permutation(ys, len(ys))",
    "is_permutation([a % 3, b % 3, 2 - c % 3], 3)", "is_permutation(xs, a)",
    "normalize_dims(ys, 3)", "normalize_dims([a, -1], 4)", "ones(a % 4)", "ones(b % 3 - 1)",
    "xs[:1] + ones(len(ys)) + xs[2:]",
    "[x * 2 for x in xs]", "[x for x in xs if x != 2]", "sum([y for y in ys if y > a])",
    "[xs[k] for k in range(len(xs)) if k not in ys]", "a in xs", "b not in ys",
    "[x // (b % 3) for x in xs if x in ys]", "len([k for k in range(a % 5) if k % 2 == 0])",
    # floats as error messages show them (Python's repr: fixed for exponents -4..15)
    "f * 1e9", "f * 1e15", "f * 1e16", "f * 1e-4", "f * 1e-5", "f * 1e300", "f / 3.0",
    # negations (rendered simplified: flipped comparisons, De Morgan, no `!!`)
    "not (a > b)", "not (f < 1.0)", "not (f >= 0.5 and a != 0)", "not (a == b or flag)",
    "not (xs == ys)", "not (a in xs)", "not not flag", "not (not flag or a <= c)",
    # name-free parts are written as their values; a fixed condition picks its branch
    "a + (2 if 1 > 0 else 3)", "floor(0.5) + a", "f * (1.0 if 0.0 >= 0.0 else 2.0)",
    "f if 1 > 2 else 0.5", "b if flag else b", "(7 // 2) * a", "float(3) / 2.0 + f",
]

CPP_TYPE = {E.INT: "int64_t", E.FLOAT: "double", E.BOOL: "bool", E.INT_LIST: "std::vector<int64_t>"}


def _program(exprs: list[tuple[str, str]]) -> str:
    """`exprs`: (C++ type, C++ text) of each case."""
    cases = []
    for cpp_type, text in exprs:
        cases.append(f"    try {{ {cpp_type} v = {text}; std::cout << show(v); }} "
                     f"catch (const webgpu_delegate::Error&) {{ std::cout << \"ERR\"; }}\n"
                     f"    std::cout << '\\n';")
    body = "\n".join(cases)
    return f"""
#include <cstdint>
#include <iostream>
#include <sstream>
#include <vector>
#include "webgpu_delegate/utils.h"
using namespace webgpu_delegate;
static std::string show(int64_t v) {{ return std::to_string(v); }}
static std::string show(bool v) {{ return v ? "true" : "false"; }}
static std::string show(double v) {{ return utils::format_value(v); }}
static std::string show(const std::vector<int64_t>& v) {{ return utils::format_value(v); }}
static std::vector<int64_t> read_list() {{
  size_t n; std::cin >> n; std::vector<int64_t> v(n); for (auto& x : v) std::cin >> x; return v;
}}
int main() {{
  int64_t a, b, c; double f; int flag_int;
  while (std::cin >> a >> b >> c >> f >> flag_int) {{
    bool flag = flag_int != 0;
    std::vector<int64_t> xs = read_list(), ys = read_list();
{body}
  }}
}}
"""


def _py(e: E.Expr, env: dict, negate: bool = False) -> str:
    try:
        v = e.evaluate(env)
    except E.EvalError:
        return "ERR"
    return E.format_value(not v if negate else v)


def _inputs(rng: random.Random, n: int) -> list[dict]:
    pool = [0, 1, -1, 2, -2, 3, 7, -7, 13, 2**31, -(2**31), 100, -100]
    out = []
    for _ in range(n):
        pick = lambda: rng.choice(pool) if rng.random() < 0.4 else rng.randint(-50, 50)
        xs = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(1, 4))]
        ys = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(1, 4))]
        out.append({"a": pick(), "b": pick(), "c": pick(), "f": rng.choice(
            [0.0, -0.5, 1.25, 3.0, -7.75, rng.uniform(-100, 100)]), "flag": rng.random() < 0.5,
            "xs": xs, "ys": ys})
    return out


def test_cpp_rendering_matches_python(tmp_path):
    exprs = [E.Expr(t, SCOPE) for t in EXPRESSIONS]
    # each expression, then each bool expression negated
    cases = [(e, False) for e in exprs] + [(e, True) for e in exprs if e.type == E.BOOL]
    src = tmp_path / "exprs.cpp"
    src.write_text(_program([(CPP_TYPE[e.type], e.cpp_negated() if negate else e.cpp())
                             for e, negate in cases]))
    exe = tmp_path / "exprs"
    subprocess.run(["g++", "-std=c++17", "-O1", "-Wall", "-Werror", "-I",
                    str(ROOT / "cpp_runtime/include"), str(src), "-o", str(exe)], check=True)
    envs = _inputs(random.Random(1234), 400)
    stdin = "".join(f"{e['a']} {e['b']} {e['c']} {e['f']!r} {int(e['flag'])} "
                    f"{len(e['xs'])} {' '.join(map(str, e['xs']))} "
                    f"{len(e['ys'])} {' '.join(map(str, e['ys']))}\n" for e in envs)
    out = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")
    mismatches = []
    for k, env in enumerate(envs):
        for i, (e, negate) in enumerate(cases):
            cpp = lines[k * len(cases) + i]
            py = _py(e, env, negate)
            if cpp != py:
                shown = f"not ({e.text})" if negate else e.text
                mismatches.append(f"{shown} with {env}: C++ {cpp}, Python {py}")
    assert not mismatches, "\n".join(mismatches[:10])
    errors = sum(_py(e, env) == "ERR" for env in envs for e in exprs)
    assert errors > 0, "the inputs never exercise an error path"


@pytest.mark.parametrize("text, message", [
    ("a +", "syntax error"),
    ("unknown + 1", "unknown name 'unknown'"),
    ("a / b", "'/' on two integers is ambiguous"),
    ("f // 2", "'//' and '%' need integers"),
    ("a < b < c", "chained comparisons"),
    ("a if a else b", "condition"),
    ("xs.dims", "not readable"),
    ("open('x')", "unknown function 'open'"),
    ("[f]", "list literals hold integers"),
    ("xs < ys", "cannot compare"),
    ("lambda: 1", "not allowed"),
    ("[a for a in xs]", "hides a name"),
    ("[x for x in xs for y in ys]", "one 'for'"),
    ("[x for x in f]", "iterates an int list or a tensor list"),
    ("[x > 1 for x in xs]", "build int lists"),
    ("[x for x in xs if x]", "must be bool"),
    ("[x for x in xs] + [x]", "unknown name 'x'"),
    ("f in xs", "'in' tests an int"),
])
def test_malformed_expressions_are_rejected(text, message):
    with pytest.raises(E.ExprError, match=message.replace("(", r"\(")):
        E.Expr(text, SCOPE)


def test_tensor_attributes():
    scope = {"t": E.Sym(E.TENSOR, "t"), "o": E.Sym(E.OPT_TENSOR, "o")}
    env = {"t": E.TensorInfo((2, 3, 4), "float32"), "o": E.ABSENT}
    cases = {"t.dims[-1]": 4, "t.numel": 24, "t.rank": 3, "o.present": False,
             "not o.present or o.dims[0] == 1": True, "t.dtype == 'float32'": True}
    for text, want in cases.items():
        e = E.Expr(text, scope)
        assert e.evaluate(env) == want, text
    assert E.Expr("t.dims[-1]", scope).cpp() == "t.dim(-1)"
    assert E.Expr("o.dims[0]", scope).cpp() == "o->dim(0)"
    assert E.Expr("o.present", scope).cpp() == "(o != nullptr)"
    with pytest.raises(E.EvalError, match="absent optional tensor"):
        E.Expr("o.dims[0]", scope).evaluate(env)


def test_tensor_list_comprehensions():
    scope = {"ts": E.Sym(E.TENSOR_LIST, "ts")}
    env = {"ts": [E.TensorInfo((2, 3), "float32"), E.ABSENT, E.TensorInfo((0,), "int32")]}
    cases = {"[t.dims[0] for t in ts if t.present]": [2, 0],
             "[k for k in range(len(ts)) if not ts[k].present]": [1],
             "sum([t.numel for t in ts if t.present and t.rank == 2])": 6}
    for text, want in cases.items():
        e = E.Expr(text, scope)
        assert e.evaluate(env) == want, text
        assert e.names == ["ts"], "loop variables are not names of the scope"
    assert E.Expr("[t.rank for t in ts if t.present]", scope).cpp() == (
        "[&]() { std::vector<int64_t> _values; for (const auto& _t : ts) { "
        "if ((_t != nullptr)) _values.push_back(_t->rank()); } return _values; }()")
    # a loop variable the element and the filter never read is declared [[maybe_unused]]
    # (no -Wunused-variable in the generated handlers, e.g. repeat's `[1 for _ in ...]`)
    assert E.Expr("[1 for t in ts]", scope).cpp() == (
        "[&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _t : ts) { "
        "_values.push_back(1); } return _values; }()")


def test_an_argument_may_share_a_builtins_name():
    """clamp's `min` and `max` arguments: a bare name is the argument, a call the builtin."""
    scope = {"min": E.Sym(E.FLOAT, "min"), "f": E.Sym(E.FLOAT, "f")}
    e = E.Expr("min(min, f)", scope)
    assert e.names == ["f", "min"]
    assert e.evaluate({"min": 2.0, "f": 1.5}) == 1.5
    assert E.Expr("min * 2.0", scope).names == ["min"]


def test_cpp_reads_like_hand_written_cpp():
    """Negations flip what they negate; name-free parts are their values."""
    scope = {**SCOPE, "o": E.Sym(E.OPT_TENSOR, "o")}
    negated = {"not flag": "flag", "flag": "!flag", "a == b or c <= 0": "(a != b) && (c > 0)",
               "f < 1.0": "!(f < 1.0)", "f == 1.0": "f != 1.0",
               "a in xs": "!utils::contains(xs, a)",
               "not o.present or o.dims[0] == 1": "(o != nullptr) && (o->dim(0) != 1)",
               "broadcasts(xs, ys)": "!utils::broadcasts(xs, ys)"}
    for text, want in negated.items():
        assert E.Expr(text, scope).cpp_negated() == want, text
    rendered = {"not (a > b)": "a <= b", "0.0 >= 0.0": "true",
                "floor(-0.5) + a": "utils::add(-1, a)",
                "a if 1 > 0 else b": "a", "b if flag else b": "b",
                "a if 0 > 1 else c": "c",
                "a if flag else 2 * 3": "flag ? a : 6"}
    for text, want in rendered.items():
        assert E.Expr(text, scope).cpp() == want, text
