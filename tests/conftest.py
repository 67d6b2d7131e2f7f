"""Options of the spec-case tests (tests/test_ops.py):

    pytest tests/test_ops.py --op tanh                    # one op, every executor
    pytest tests/test_ops.py --op tanh,relu --executor=harness

`--op NAME[,NAME]` (repeatable) selects exactly those ops' cases (by spec op name, not a
`-k` substring: `--op exp` is not `expm1`) plus the cross-op gates, which then check
only those ops (every route has a case, every guard a negative case); the other
cross-op tests are left out. `--executor` picks the executors (default all three);
cross-op tests that run on executors run on those alone. `-n 2 --dist loadgroup`
(pytest-xdist, as scripts/test.sh runs it) spreads the suite over two processes.
"""

import os

import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

EXECUTORS = ("harness", "native", "browser")
# tests of tests/test_ops.py that check every op's spec; with --op they check those ops
GATES = ("test_every_route_has_a_case", "test_every_guard_has_a_negative_case")


def pytest_addoption(parser):
    parser.addoption("--executor", default=",".join(EXECUTORS),
                     help="comma-separated executors whose spec cases run (tests/test_ops.py): "
                          f"{', '.join(EXECUTORS)}; default all")
    parser.addoption("--op", action="append", default=[],
                     help="only this op's spec cases and the cross-op gates for it "
                          "(tests/test_ops.py; spec op names, comma-separated or repeated)")


def chosen_executors(config) -> list[str]:
    chosen = [e for e in config.getoption("--executor").split(",") if e]
    unknown = set(chosen) - set(EXECUTORS)
    if unknown:
        raise pytest.UsageError(f"--executor: unknown {', '.join(sorted(unknown))} "
                                f"(known: {', '.join(EXECUTORS)})")
    return chosen


def chosen_ops(config) -> frozenset[str] | None:
    """The ops --op names (None: every op); a UsageError for a name no spec has."""
    names = {n for opt in config.getoption("--op") for n in opt.split(",") if n}
    if not names:
        return None
    from codegen.lower.catalog import catalog

    known = {b.op.name for b in catalog().ops}
    unknown = names - known
    if unknown:
        raise pytest.UsageError(f"--op: no op named {', '.join(sorted(unknown))} (ops: "
                                f"{', '.join(sorted(known))})")
    return frozenset(names)


@pytest.fixture
def executor_names(request) -> list[str]:
    """The executors --executor chose."""
    return chosen_executors(request.config)


@pytest.fixture
def op_names(request) -> frozenset[str] | None:
    """The ops --op chose (None: every op)."""
    return chosen_ops(request.config)


def _op_of(item) -> str | None:
    """The op of a spec-case test (test_<executor>[<op>[<case>]])."""
    run = getattr(getattr(item, "callspec", None), "params", {}).get("run")
    return run.op.op.name if run is not None else None


def pytest_collection_modifyitems(config, items):
    """Spec cases run on the executors --executor names (test_<executor>[<op>[<case>]]);
    with --op, tests/test_ops.py runs those ops' cases and the gates only."""
    skipped = {f"test_{e}" for e in EXECUTORS if e not in chosen_executors(config)}
    ops = chosen_ops(config)

    def kept(item) -> bool:
        if item.originalname in skipped:
            return False
        if ops is None or item.module.__name__ != "test_ops":
            return True
        op = _op_of(item)
        return op in ops if op is not None else item.originalname in GATES

    config.hook.pytest_deselected(items=[i for i in items if not kept(i)])
    items[:] = [i for i in items if kept(i)]
    # Under pytest-xdist (scripts/test.sh: -n 2 --dist loadgroup) every module but
    # test_ops runs whole on one worker, so module fixtures (exported models, sites, built
    # runners) are made once; test_ops's cases are independent and spread one by one.
    # xdist hands out work in collection order as workers free up: the modules go first
    # and test_ops's thousands of short cases last, so they fill whatever time the
    # modules leave between the two workers and both finish together.
    for item in items:
        if item.module.__name__ != "test_ops":
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
    items.sort(key=lambda item: item.module.__name__ == "test_ops")  # stable: order kept
