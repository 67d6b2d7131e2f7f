"""docs/coverage.md against upstream's WebGPU registrations (tests/data/
upstream_webgpu_targets.json) and the op table: the page is current, every upstream target
we serve keeps its spec, and the list of targets still missing is exact."""

from __future__ import annotations

import importlib.util
import json

from codegen.paths import REPO_ROOT

_SPEC = importlib.util.spec_from_file_location("upstream_coverage",
                                               REPO_ROOT / "tools" / "upstream_coverage.py")
coverage = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(coverage)

# upstream targets no spec serves yet -> the work that will serve them. The test fails when
# any other upstream target has no spec (a spec was lost or renamed) and when one of these
# gets a spec (remove it here, and regenerate docs/coverage.md).
KNOWN_MISSING: dict[str, str] = {}


def test_doc_is_current():
    assert coverage.DOC.read_text() == coverage.render(), \
        "docs/coverage.md is stale: run python tools/upstream_coverage.py"


def test_served_targets_keep_their_specs():
    lost = sorted(set(coverage.missing()) - set(KNOWN_MISSING))
    assert not lost, f"upstream targets without a spec: {lost} (a spec was removed or renamed)"


def test_known_missing_is_exact():
    served = sorted(set(KNOWN_MISSING) - set(coverage.missing()))
    assert not served, f"now served: {served}; remove them from KNOWN_MISSING"
    names = {t["name"] for t in coverage.upstream()["targets"]}
    assert set(KNOWN_MISSING) <= names, "KNOWN_MISSING names a target upstream lacks"


def test_upstream_list_is_whole():
    """The data holds each registration once, at one commit, each under the ops folder."""
    data = json.loads(coverage.DATA.read_text())
    names = [t["name"] for t in data["targets"]]
    assert len(names) == len(set(names)) and len(names) == 131
    assert len(data["commit"]) == 40
    assert all(t["file"].startswith(coverage.OPS_DIR + "/") for t in data["targets"])


def test_loader_targets_are_the_loaders():
    source = (REPO_ROOT / coverage.LOADER).read_text()
    assert all(f'"{t}"' in source for t in coverage.LOADER_TARGETS)


def test_graph_names():
    """How a graph's namespace-less names meet our targets (the loader's reading)."""
    ours = {"aten.sym_size.int": "s", "llama.update_cache.default": "u",
            "aten.add.int": "a", "aten.add.Tensor": "t"}
    assert coverage.served_by("sym_size.int", ours) == "aten.sym_size.int"
    assert coverage.served_by("update_cache.default", ours) == "llama.update_cache.default"
    assert coverage.served_by("add", ours) == "aten.add.int"
    assert coverage.served_by("aten.add.Tensor", ours) == "aten.add.Tensor"
    assert coverage.served_by("mul", ours) is None
