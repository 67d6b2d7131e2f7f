"""Every case of every spec, on the Python harness and on the native runner, against torch."""

import pytest

from codegen import harness, native
from codegen.cases import all_case_runs, execute

RUNS = all_case_runs(harness.catalog())


@pytest.mark.parametrize("run", RUNS, ids=[r.id for r in RUNS])
def test_harness(run):
    execute(run, harness)


@pytest.mark.parametrize("run", RUNS, ids=[r.id for r in RUNS])
def test_native(run):
    execute(run, native)


def test_every_route_has_a_case():
    """Each declared route is named by at least one case that must take it."""
    for b in harness.catalog().ops:
        routed = {c.route for c in b.op.cases}
        for d in b.dispatches:
            for r in d.routes:
                assert r.route.kernel.name in routed, \
                    f"{b.op.name}: route {r.route.kernel.name!r} has no case with route=..."


def test_every_guard_has_a_negative_case():
    for b in harness.catalog().ops:
        raises = [c.raises for c in b.op.cases if c.raises]
        for g in b.guards:
            assert any(f"{g.guard.arg} {g.guard.what}" in r for r in raises), \
                f"{b.op.name}: guard '{g.guard.arg} {g.guard.what}' has no negative case"


def test_adapter_is_present():
    assert harness.adapter_line()
