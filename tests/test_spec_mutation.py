"""Spec errors, property-based: hypothesis mutates valid spec files (on a scratch copy of
the repository) and `opgen generate` must always end with exit status 2 and one
paragraph that names the spec file, the field and the fix, never a Python traceback and
never a partial write.

Each mutation kind is built to make the spec invalid whatever site it hits, so any
other outcome (exit 0, a traceback, a vague message, a changed file) is a toolkit bug.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from codegen import language as model
from codegen.language import checked
from scratch_repo import copy_repo, opgen, snapshot

SPEC_FILES = ["codegen/specs/unary/unary.py", "codegen/specs/binary/binary.py",
              "codegen/specs/max_pool2d/max_pool2d.py",
              "codegen/specs/constant_pad_nd/constant_pad_nd.py",
              "codegen/specs/sdpa/sdpa.py"]
# CI draws the same mutations every run (derandomized); OPGEN_MUTATION_EXAMPLES=N draws N
# random ones per kind instead, a deeper local run
EXAMPLES_PER_KIND = int(os.environ.get("OPGEN_MUTATION_EXAMPLES", "4"))
EXPLORE = "OPGEN_MUTATION_EXAMPLES" in os.environ

# The spec model's classes (what a spec file calls) and the fields holding expressions.
CLASSES = {n: c for n, c in vars(model).items()
           if isinstance(c, type) and dataclasses.is_dataclass(c)
           and c.__module__.startswith("codegen.language.")}
EXPR_FIELDS = {("Param", "value"), ("Elementwise", "count"), ("Rows", "count"), ("Tiles", "x"),
               ("Tiles", "y"), ("Tiles", "z"), ("Guard", "check"), ("Guard", "got"),
               ("Route", "when"), ("Dispatch", "when"), ("Copy", "nbytes"), ("Copy", "when"),
               ("Scratch", "shape"), ("OutputList", "count"), ("Op", "flops"), ("Op", "bytes")}
PARAM_HELPERS = ("u32", "i32", "f32")  # u32("expr") is Param("u32", "expr")
MODEL = "__import__('codegen.language', fromlist=['_']).{}"  # a model name without an import
UNPLACEABLE = ["array<u32, 3>", "array<f32, 2>", "array<vec2<f32>, 4>", "u33", "bool",
               "vec5<f32>", "array<u32, 0>"]
SYNTAX_BREAKERS = ["{} +", "({}", "{})", "{} if", "{} 1", "{} ,,", "{} ==", "[{}"]
STRAY_NAMES = ["colour", "dtype", "kernel_name", "optinal", "grid_size"]
HINT = re.compile(r"\b(write|declare|remove|use|create|expected|must be|must name|must hold|"
                  r"must end|must have|route inside|known|available|allowed|offer|needs?)\b")


def init_fields(cls) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(cls) if f.init and f.name != "folder"]


def required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def calls(tree: ast.AST) -> list[tuple[ast.Call, str]]:
    """Calls of spec model classes, in source order, with the class name."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in CLASSES:
            out.append((node, node.func.id))
    return sorted(out, key=lambda c: (c[0].lineno, c[0].col_offset))


def given_fields(call: ast.Call, cls_name: str) -> list[tuple[str, ast.expr, object]]:
    """(field, value node, where) for each value the call passes; `where` is an int for a
    positional value, the keyword node otherwise."""
    names = [f.name for f in init_fields(CLASSES[cls_name])]
    out = [(names[i], a, i) for i, a in enumerate(call.args)
           if i < len(names) and not isinstance(a, ast.Starred)]
    out += [(k.arg, k.value, k) for k in call.keywords if k.arg]
    return out


def expr_strings(tree: ast.AST) -> list[ast.Constant]:
    """String constants the toolkit parses as expressions, in source order."""
    found = []
    for call, name in calls(tree):
        for fname, value, _ in given_fields(call, name):
            if (name, fname) in EXPR_FIELDS:
                found.append(value)
            if name == "Op" and fname in ("shapes", "let") and isinstance(value, ast.Dict):
                found += value.values
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in PARAM_HELPERS and node.args:
            found.append(node.args[0])
    found = [c for c in found if isinstance(c, ast.Constant) and isinstance(c.value, str)
             and c.value.strip()]
    return sorted({id(c): c for c in found}.values(), key=lambda c: (c.lineno, c.col_offset))


def bad_value(hint) -> ast.expr:
    """A literal that does not have the field's declared type."""
    for candidate in (7, "seven", None, [1], {"a": 1}, 2.5, True, ("a", 1)):
        if not checked._conforms(candidate, hint):
            return ast.parse(repr(candidate), mode="eval").body
    raise AssertionError(f"no wrong value for {hint}")


def model_call(expr: str) -> ast.expr:
    return ast.parse(expr, mode="eval").body


# --- mutation kinds: each returns (site count, apply(tree, site, rnd) -> expected text) ----

def _sites_missing(tree):
    out = []
    for call, name in calls(tree):
        for fname, value, where in given_fields(call, name):
            f = next(f for f in init_fields(CLASSES[name]) if f.name == fname)
            last_positional = isinstance(where, int) and where == len(call.args) - 1
            if required(f) and (not isinstance(where, int) or last_positional):
                out.append((call, fname, where))
    return out


def m_missing_field(tree, site, rnd):
    call, fname, where = _sites_missing(tree)[site]
    if isinstance(where, int):
        call.args.pop(where)
    else:
        call.keywords.remove(where)
    return [fname]


def _sites_unknown(tree):
    return [c for c, _ in calls(tree)]


def m_unknown_field(tree, site, rnd):
    call = _sites_unknown(tree)[site]
    stray = STRAY_NAMES[rnd % len(STRAY_NAMES)]
    call.keywords.append(ast.keyword(arg=stray, value=ast.Constant(1)))
    return [stray]


def _sites_wrong_type(tree):
    return [(call, name, fname, where) for call, name in calls(tree)
            for fname, _, where in given_fields(call, name)]


def m_wrong_type(tree, site, rnd):
    call, name, fname, where = _sites_wrong_type(tree)[site]
    value = bad_value(checked._hints(CLASSES[name])[fname])
    if isinstance(where, int):
        call.args[where] = value
    else:
        where.value = value
    return [fname]


def m_unknown_symbol(tree, site, rnd):
    const = expr_strings(tree)[site]
    parsed = ast.parse(const.value.strip(), mode="eval")
    names = [n for n in ast.walk(parsed) if isinstance(n, ast.Name)]
    if names:
        names[rnd % len(names)].id = "no_such_symbol"
        const.value = ast.unparse(parsed)
    else:  # a literal: make it read a name instead
        const.value = f"no_such_symbol + ({const.value})"
    return ["no_such_symbol"]


def m_syntax_error(tree, site, rnd):
    const = expr_strings(tree)[site]
    const.value = SYNTAX_BREAKERS[rnd % len(SYNTAX_BREAKERS)].format(const.value)
    return ["syntax error", repr(const.value)[1:-1][:20]]


def _sites_dispatch(tree):
    out = []
    for call, name in calls(tree):
        if name != "Dispatch":
            continue
        fields = {f: v for f, v, _ in given_fields(call, name)}
        binds = fields.get("bindings")
        if isinstance(binds, ast.List) and len(binds.elts) >= 2 and all(
                isinstance(b, ast.Call) and b.args and isinstance(b.args[0], ast.Constant)
                for b in binds.elts):
            out.append((call, binds.elts, fields.get("params")))
    return out


def m_duplicate_binding(tree, site, rnd):
    _, binds, _ = _sites_dispatch(tree)[site]
    j = 1 + rnd % (len(binds) - 1)
    if rnd % 3 == 2:  # 'params' is the uniform's name
        binds[j].args[0] = ast.Constant("params")
        return ["binding names must be unique", "params"]
    binds[j].args[0] = ast.Constant(binds[0].args[0].value)
    return ["binding names must be unique", binds[0].args[0].value]


def _sites_params(tree):
    return [s for s in _sites_dispatch(tree) if isinstance(s[2], ast.Dict)]


def m_unplaceable_param(tree, site, rnd):
    _, _, params = _sites_params(tree)[site]
    wgsl = UNPLACEABLE[rnd % len(UNPLACEABLE)]
    at = rnd % (len(params.keys) + 1)
    params.keys.insert(at, ast.Constant("probe"))
    params.values.insert(at, model_call(MODEL.format("Param") + f"({wgsl!r}, '1')"))
    return [wgsl]


def _sites_route(tree):
    return [c for c, n in calls(tree) if n == "Route"]


def m_unknown_kernel(tree, site, rnd):
    call = _sites_route(tree)[site]
    if rnd % 2:
        call.args[0] = model_call(MODEL.format("Kernel") + "('no_such_kernel')")
        # "file .../no_such_kernel.wgsl does not exist; create it", or, when the route
        # sets overrides, that the new kernel does not declare them
        return ["no_such_kernel"]
    call.args[0] = ast.Constant("relu")  # a kernel's name instead of the Kernel
    return ["kernel", "Kernel(...)"]


def m_undeclared_override(tree, site, rnd):
    call = _sites_route(tree)[site]
    call.keywords = [k for k in call.keywords if k.arg != "overrides"]
    call.keywords.append(ast.keyword(arg="overrides", value=model_call("{'NO_SUCH_OVERRIDE': '1'}")))
    return ["NO_SUCH_OVERRIDE", "does not declare"]


def _sites_case(tree):
    return [c for c, n in calls(tree) if n == "Case"]


def m_case_unknown_route(tree, site, rnd):
    call = _sites_case(tree)[site]
    call.keywords = [k for k in call.keywords if k.arg != "route"]
    call.keywords.append(ast.keyword(arg="route", value=ast.Constant("no_such_route")))
    return ["no_such_route", "route"]


def _sites_guard(tree):
    return [c for c, n in calls(tree) if n == "Guard" and len(c.args) >= 2]


def m_guard_unknown_arg(tree, site, rnd):
    call = _sites_guard(tree)[site]
    call.args[1] = ast.Constant("no_such_arg")
    return ["no_such_arg", "arg"]


KINDS = {
    "missing_field": (_sites_missing, m_missing_field),
    "unknown_field": (_sites_unknown, m_unknown_field),
    "wrong_type": (_sites_wrong_type, m_wrong_type),
    "unknown_symbol": (expr_strings, m_unknown_symbol),
    "syntax_error": (expr_strings, m_syntax_error),
    "duplicate_binding": (_sites_dispatch, m_duplicate_binding),
    "unplaceable_param": (_sites_params, m_unplaceable_param),
    "unknown_kernel": (_sites_route, m_unknown_kernel),
    "undeclared_override": (_sites_route, m_undeclared_override),
    "case_unknown_route": (_sites_case, m_case_unknown_route),
    "guard_unknown_arg": (_sites_guard, m_guard_unknown_arg),
}
STATS = {"mutations": 0, "clean_errors": 0, "kinds": set()}


# --- the scratch repository -----------------------------------------------------------------

@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    dst = copy_repo(tmp_path_factory.mktemp("mutation") / "repo")
    # The mutated files are written with ast.unparse: the unmutated round trip must
    # still be a valid, up-to-date spec (so every error below comes from a mutation).
    for rel in SPEC_FILES:
        spec = dst / rel
        spec.write_text(ast.unparse(ast.parse(spec.read_text())) + "\n")
    res = opgen(dst, "check")
    assert res.returncode == 0, res.stderr
    return dst


def assert_clean_error(res: subprocess.CompletedProcess, spec_rel: str, expect: list[str],
                       before: dict, repo: Path, what: str) -> None:
    err = res.stderr.strip()
    context = f"{what}\n--- stderr ---\n{res.stderr}\n--- stdout ---\n{res.stdout}"
    assert res.returncode == 2, f"exit {res.returncode}, expected 2: {context}"
    assert "Traceback" not in res.stderr, context
    assert err.startswith("opgen generate: error: "), context
    assert "\n\n" not in err and len(err.splitlines()) <= 3, f"not one paragraph: {context}"
    assert spec_rel in err, f"does not name {spec_rel}: {context}"
    for text in expect:
        assert text in err, f"does not mention {text!r}: {context}"
    assert HINT.search(err), f"says nothing about what to write instead: {context}"
    assert not res.stdout.strip(), context
    assert snapshot(repo) == before, f"files changed: {context}"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_mutated_spec_fails_cleanly(repo, kind):
    find_sites, mutate = KINDS[kind]
    sites = [(rel, i) for rel in SPEC_FILES
             for i in range(len(find_sites(ast.parse((repo / rel).read_text()))))]
    assert sites, f"no site for {kind}"
    before = snapshot(repo)

    @settings(max_examples=EXAMPLES_PER_KIND, deadline=None, database=None,
              derandomize=not EXPLORE,
              phases=(Phase.explicit, Phase.generate),  # no shrinking: CI time is bounded
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(site=st.sampled_from(sites), rnd=st.integers(0, 1000))
    def check(site, rnd):
        rel, index = site
        spec = repo / rel
        original = spec.read_text()
        tree = ast.parse(original)
        expect = mutate(tree, index, rnd)
        mutated = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
        assert mutated != original
        try:
            spec.write_text(mutated)
            res = opgen(repo, "generate")
        finally:
            spec.write_text(original)
        STATS["mutations"] += 1
        assert_clean_error(res, rel, expect, before, repo, f"{kind} at {rel} site {index}")
        STATS["clean_errors"] += 1
        STATS["kinds"].add(kind)

    check()


def test_two_specs_for_one_target(repo):
    """A second spec claiming each target of the mutated files' ops."""
    before = snapshot(repo)
    targets = [t for rel in SPEC_FILES for t in re.findall(
        r"'(aten\.[a-z_0-9]+\.[A-Za-z_0-9]+)'", (repo / rel).read_text())]
    targets = sorted(set(targets))[:4]
    assert targets
    dup = repo / "codegen/specs/zz_dup"
    dup.mkdir()
    try:
        for t in targets:
            (dup / "zz_dup.py").write_text(
                "from codegen.language import *\n"
                f"OPS = [Op(name='zz_dup', targets=[{t!r}], args=[Tensor('self'), Output('out')], "
                "shapes={'out': 'self.dims'}, resize='static', "
                "dispatches=[Copy('self', 'out', 'self.numel * 4')])]\n")
            res = opgen(repo, "generate")
            STATS["mutations"] += 1
            assert_clean_error(res, "codegen/specs/zz_dup/zz_dup.py", [t, "already claimed"],
                               before | {"codegen/specs/zz_dup/zz_dup.py":
                                         (dup / "zz_dup.py").read_bytes()}, repo, t)
            STATS["clean_errors"] += 1
    finally:
        shutil.rmtree(dup)
    STATS["kinds"].add("two_specs_for_one_target")


def test_zz_summary(request):
    """Prints the counts (runs last in this file); every kind produced clean errors."""
    if STATS["mutations"] == 0:
        pytest.skip("the mutation tests did not run (deselected)")
    line = (f"spec mutation: {STATS['mutations']} specs mutated, {STATS['clean_errors']} clean "
            f"errors, kinds: {', '.join(sorted(STATS['kinds']))}")
    with request.config.pluginmanager.getplugin("capturemanager").global_and_fixture_disabled():
        print("\n" + line)
    assert STATS["clean_errors"] == STATS["mutations"]
