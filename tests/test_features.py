"""Routes that need adapter features (Kernel(features=...)): the spec rules, the enable
directives in the composed module, route choice by the device's features, masking a
feature on every executor, and failing loud where a feature route cannot run."""

import subprocess

import pytest
import torch

from codegen.executors import browser, browser_planned, harness, native
from codegen.executors.call import bind_call, catalog
from codegen.executors.wgpu_device import naga_source
from codegen.lower import interpret
from codegen.lower.wgsl_module import ShaderSyncError, authored_text, compose
from codegen.language import Dispatch, Elementwise, Kernel, Route, SpecError
from codegen.graph.errors import OpError

EXECUTORS = (harness.EXECUTOR, native.EXECUTOR, browser.EXECUTOR)
SUBGROUP = Kernel("probe_subgroup", features=("subgroups",))
PORTABLE = Kernel("probe_portable")


def gemv_call():
    """linear with two input rows: the GEMV dispatch, whose first route needs subgroups."""
    return bind_call("aten.linear.default", (torch.randn(2, 16), torch.randn(5, 16)), {})


def test_kernel_features_are_webgpu_names():
    with pytest.raises(SpecError, match=r"features must be a tuple of WebGPU feature names out "
                                        r"of shader-f16, subgroups \(got \('subgroup',\)\)"):
        Kernel("k", features=("subgroup",))


def test_a_feature_route_needs_no_when_but_the_fallback_needs_no_feature():
    Dispatch(params={}, bindings=[], routes=[Route(SUBGROUP, Elementwise("1")),
                                             Route(PORTABLE, Elementwise("1"))])
    with pytest.raises(SpecError, match="the last route \\('probe_subgroup'\\) needs features "
                                        "subgroups: the fallback must run on every device"):
        Dispatch(params={}, bindings=[], routes=[Route(SUBGROUP, Elementwise("1"))])
    with pytest.raises(SpecError, match="has no 'when' but is not the last route"):
        Dispatch(params={}, bindings=[], routes=[Route(PORTABLE, Elementwise("1")),
                                                 Route(PORTABLE, Elementwise("1"))])


def test_a_feature_kernels_module_starts_with_the_enable_directive(tmp_path):
    linear = next(b for b in catalog().ops if b.op.name == "linear")
    gemv = next(d for d in linear.dispatches if d.spec.name == "gemv")
    kernels = {r.route.kernel.name: r.route.kernel for r in gemv.routes}
    module = compose(linear, gemv, kernels["gemv_rows_subgroup"]).text.split("\n")
    assert module[0].startswith("// @generated") and module[1] == "enable subgroups;"
    assert "enable" not in compose(linear, gemv, kernels["gemv_rows"]).text
    # the author declares features in the spec, not in the file
    authored = tmp_path / "k.wgsl"
    authored.write_text("// a comment\nenable subgroups;\nfn main() {}\n")
    with pytest.raises(ShaderSyncError, match="has an 'enable' directive; declare the kernel's "
                                              "features=\\(...\\) in the spec"):
        authored_text(authored, "op")


def test_naga_gets_the_directive_as_a_comment_line_for_line():
    text = "enable subgroups;\nstruct P { x: u32 };\n  enable subgroups; // not a directive line\n"
    assert naga_source(text) == "// enable subgroups;\nstruct P { x: u32 };\n" \
                                "  enable subgroups; // not a directive line\n"


def test_routes_choose_by_the_devices_features():
    call = gemv_call()

    def routes(features, force=()):
        plans = interpret.plan(call.lowering, call.values, 65535, force, frozenset(features))
        return [p.kernel.name for p in plans if p.run]

    assert routes({"subgroups"}) == ["gemv_rows_subgroup"]
    assert routes(set()) == ["gemv_rows"]
    assert routes({"subgroups"}, force=("gemv_rows",)) == ["gemv_rows"]
    with pytest.raises(OpError, match=r"WebGPU linear: route gemv_rows_subgroup needs device "
                                      r"features the device lacks \(got \[\], expected subgroups\)"):
        routes(set(), force=("gemv_rows_subgroup",))


@pytest.mark.parametrize("executor", EXECUTORS, ids=[e.name for e in EXECUTORS])
def test_every_executor_has_subgroups_and_masks_them(executor):
    """lavapipe (harness, native) and SwiftShader (browser) both offer subgroups, so the
    feature route and its fallback both run everywhere the suite runs."""
    assert "subgroups" in executor.features()
    masked = executor.without(("subgroups",))
    assert "subgroups" not in masked.features()
    assert executor.masked == frozenset()  # without() leaves the executor itself alone
    assert masked.build(gemv_call()).routes == ["gemv_rows"]
    assert executor.build(gemv_call()).routes == ["gemv_rows_subgroup"]


# Forced routes are the planners' (opgen bench --force): the harness and the planned-steps
# page; the WebAssembly executor runs the routes the generated C++ picks.
@pytest.mark.parametrize("executor", (harness.EXECUTOR, browser_planned.EXECUTOR),
                         ids=["harness", "browser_planned"])
def test_forcing_a_feature_route_without_the_feature_fails_loud(executor):
    with pytest.raises(OpError, match="route gemv_rows_subgroup needs device features the "
                                      "device lacks"):
        executor.without(("subgroups",)).build(gemv_call(), force=("gemv_rows_subgroup",))


def test_masking_an_unknown_feature_is_an_error():
    with pytest.raises(ValueError, match="unknown WebGPU features subgroup "):
        harness.EXECUTOR.without(("subgroup",))
    res = subprocess.run([str(native.runner_path()), "--device-info", "--mask-features",
                          "subgroup"], capture_output=True, text=True)
    assert res.returncode == 1
    assert "cannot mask unknown feature 'subgroup' (known: shader-f16, subgroups)" in res.stderr


def test_every_place_lists_the_same_optional_features():
    """features.py is the one list; the runtime, wgpu_ext.cpp and the browser page agree."""
    import re

    from codegen.language.features import FEATURES
    from codegen.paths import REPO_ROOT

    def read(path):
        return (REPO_ROOT / path).read_text()

    enum = re.search(r"enum class Feature : uint8_t \{([^}]*)\}",
                     read("cpp_runtime/include/webgpu_delegate/graph.h")).group(1)
    assert [m.strip() for m in enum.split(",")] == [f.cpp for f in FEATURES.values()]
    names = dict(re.findall(r"case Feature::(\w+):\s*return \"([^\"]+)\";",
                            read("cpp_runtime/src/device.cpp")))
    assert names == {f.cpp: f.name for f in FEATURES.values()}
    ids = set(re.findall(r"case Feature::(\w+):", read("cpp_runtime/src/wgpu_ext.cpp")))
    assert ids == {f.cpp for f in FEATURES.values()}
    page = re.search(r"const OPTIONAL_FEATURES = \[([^\]]*)\]",
                     read("codegen/executors/browser_page/runner.js")).group(1)
    assert re.findall(r'"([^"]+)"', page) == list(FEATURES)
