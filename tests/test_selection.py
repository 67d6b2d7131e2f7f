"""The single-op test command (README: `pytest tests/test_ops.py --op <name>`) selects
exactly that op's cases plus the cross-op gates for it, and the cross-op tests that run
on executors respect --executor (tests/conftest.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from codegen.executors.cases import all_case_runs
from codegen.lower.catalog import catalog
from codegen.paths import REPO_ROOT


def pytest_run(*argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *argv],
                          capture_output=True, text=True, cwd=REPO_ROOT,
                          env={**os.environ, **(env or {})}, timeout=600)


def test_op_selects_exactly_its_cases_and_the_gates():
    """`--op exp` is not `-k exp`: no expm1, expand_copy or another op's case named exp."""
    res = pytest_run("--collect-only", "-q", "tests/test_ops.py", "--op", "exp",
                     "--executor=harness")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    ids = [line for line in res.stdout.splitlines() if line.startswith("tests/")]
    runs = [r.id for r in all_case_runs(catalog()) if r.op.op.name == "exp"]
    assert any("/" in r for r in runs), "exp's float16 cases have masked twins"
    assert ids == [f"tests/test_ops.py::test_harness[{r}]" for r in runs] + [
        "tests/test_ops.py::test_every_route_has_a_case",
        "tests/test_ops.py::test_every_guard_has_a_negative_case"], ids


def test_op_gates_check_that_op_only():
    res = pytest_run("-q", "-s", "tests/test_ops.py", "--op", "exp", "--executor=harness",
                     "-k", "every_guard")
    assert res.returncode == 0, res.stdout[-2000:]
    guards = len(catalog().op("exp").guards)
    assert re.search(rf"guards: {guards} declared, each with a negative case", res.stdout), \
        res.stdout[-2000:]


def test_unknown_op_is_a_usage_error():
    res = pytest_run("--collect-only", "-q", "tests/test_ops.py", "--op", "erff")
    assert res.returncode == 4, res.stdout[-2000:] + res.stderr[-2000:]
    assert "--op: no op named erff (ops: " in res.stderr + res.stdout


def test_cross_op_tests_respect_executor():
    """With --executor=harness the cross-op tests need no native runner (one that is not
    there fails any test that still runs it)."""
    res = pytest_run("-q", "tests/test_ops.py", "--executor=harness", "-k",
                     "resize_rule or absent_outputs or binding_above",
                     env={"OPGEN_NATIVE_RUNNER": "/nonexistent/webgpu_op_runner"})
    assert res.returncode == 0, res.stdout[-3000:]
    assert re.search(r"2 passed, 1 skipped", res.stdout), res.stdout[-2000:]
