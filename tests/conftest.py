import os

import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

EXECUTORS = ("harness", "native", "browser")


def pytest_addoption(parser):
    parser.addoption("--executor", default=",".join(EXECUTORS),
                     help="comma-separated executors whose spec cases run (tests/test_ops.py): "
                          f"{', '.join(EXECUTORS)}; default all")


def pytest_collection_modifyitems(config, items):
    """Spec cases run on the executors --executor names (test_<executor>[<op>[<case>]])."""
    chosen = [e for e in config.getoption("--executor").split(",") if e]
    unknown = set(chosen) - set(EXECUTORS)
    if unknown:
        raise pytest.UsageError(f"--executor: unknown {', '.join(sorted(unknown))} "
                                f"(known: {', '.join(EXECUTORS)})")
    skipped = {f"test_{e}" for e in EXECUTORS if e not in chosen}
    kept = [i for i in items if i.originalname not in skipped]
    config.hook.pytest_deselected(items=[i for i in items if i.originalname in skipped])
    items[:] = kept
