"""Every case of every spec on each executor (the wgpu harness, the native runner,
Chromium's WebGPU) against torch; `pytest --executor=harness,browser` picks executors,
`pytest tests/test_ops.py --op tanh` one op's cases and the gates for it (conftest.py)."""

import re

import pytest

from codegen.executors import browser, harness, native
from codegen.executors.call import catalog
from codegen.executors.cases import (all_case_runs, check, execute, masked_routes, rejection,
                                     run_case)
from codegen.executors.wgpu_device import adapter_line
from codegen.graph.errors import OpError

RUNS = all_case_runs(catalog())


def skip_without_route_features(run, executor) -> None:
    """A case pinned to a feature route needs a device with those features (Chromium's
    SwiftShader has no shader-f16): without them it is skipped, and its masked twin runs
    the fallback the routes choose there."""
    if run.masked or run.case.raises or not run.case.route:
        return
    kernel = next(k for k in run.op.op.kernels() if k.name == run.case.route)
    lacking = sorted(set(kernel.features) - executor.features())
    if lacking:
        pytest.skip(f"{run.id}: the {executor.name} device lacks {', '.join(lacking)} (the "
                    f"masked twin runs the fallback route)")


@pytest.mark.parametrize("run", RUNS, ids=[r.id for r in RUNS])
def test_harness(run):
    skip_without_route_features(run, harness.EXECUTOR)
    execute(run, harness.EXECUTOR)


@pytest.mark.parametrize("run", RUNS, ids=[r.id for r in RUNS])
def test_native(run):
    skip_without_route_features(run, native.EXECUTOR)
    if not run.case.raises:
        execute(run, native.EXECUTOR)
        return
    # A negative case: the runtime's message is the harness's, character for character.
    message = rejection(run, native.EXECUTOR)
    assert message == rejection(run, harness.EXECUTOR), f"{run.id}: the executors disagree"
    assert MESSAGE.match(message), f"{run.id}: {message!r} is not 'WebGPU <op>: <argument> " \
                                   f"<what> (got <x>, expected <y>)'"


MESSAGE = re.compile(r"^WebGPU [a-z0-9_]+: \S+ .+ \(got .*, expected .+\)$", re.S)


@pytest.mark.parametrize("run", RUNS, ids=[r.id for r in RUNS])
def test_browser(run):
    skip_without_route_features(run, browser.EXECUTOR)
    if not run.case.raises:
        execute(run, browser.EXECUTOR)
        return
    message = rejection(run, browser.EXECUTOR)
    assert message == rejection(run, harness.EXECUTOR), f"{run.id}: the executors disagree"


def _ops(names):
    """The bound ops --op chose (every op without it)."""
    return [b for b in catalog().ops if names is None or b.op.name in names]


def test_every_route_has_a_case(op_names):
    """Each declared route is named by at least one case that must take it, or (the
    fallback of a feature route) taken by the masked twin of such a case."""
    fallbacks = {(r.op.op.name, k) for r in RUNS if r.masked for k in masked_routes(r)}
    for b in _ops(op_names):
        routed = {c.route for c in b.op.cases} | {k for op, k in fallbacks if op == b.op.name}
        for d in b.dispatches:
            for r in d.routes:
                assert r.route.kernel.name in routed, \
                    f"{b.op.name}: route {r.route.kernel.name!r} has no case with route=..."


def test_every_guard_has_a_negative_case(op_names):
    """Each declared guard has its own negative case: a case whose expected error is that
    guard's message up to '(got' (test_harness/test_native check the message really is
    what both executors raise), and no two guards of an op share one message."""
    guards = negatives = 0
    for b in _ops(op_names):
        raises = [c.raises for c in b.op.cases if c.raises]
        heads = [f"{g.guard.arg} {g.guard.what} (got " for g in b.guards]
        assert len(set(heads)) == len(heads), f"{b.op.name}: two guards share a message"
        for head in heads:
            guards += 1
            assert any(head in r for r in raises), \
                f"{b.op.name}: guard '{head[:-6]}' has no negative case (Case(..., raises=" \
                f"'{head}...'))"
        negatives += len(raises)
    print(f"guards: {guards} declared, each with a negative case; {negatives} negative cases")


EXECUTORS = {"harness": harness.EXECUTOR, "native": native.EXECUTOR, "browser": browser.EXECUTOR}


def test_absent_outputs_reach_every_executor(executor_names):
    """A case binds its call once, absent outputs included: max_pool2d's indices, left
    out of the graph, travel to the native runner as Null (so the handler binds a dummy
    and returns no indices) exactly as the harness binds them."""
    run = next(r for r in RUNS if r.id == "max_pool2d_with_indices[without_indices]")
    call = run.bind(run.args(), run.kwargs())
    assert call.outputs[1].kind == "Null"
    for executor in (EXECUTORS[name] for name in executor_names):
        ran = run_case(run, executor)
        assert ran.got[0] is not None and ran.got[1] is None, executor.name
        check(run, ran)


def test_one_resize_rule_on_every_executor(executor_names):
    """A built op takes live inputs of its built rank with each dim within the dim it was
    built with, and gives outputs of at most the built element count, on every executor
    alike: shrinking runs; growing a dim fails, even at an equal or smaller byte count."""
    import torch

    from codegen.executors.call import bind_call
    from codegen.graph.inputs import SymInt

    x = torch.randn(4, 6)
    for executor in (EXECUTORS[name] for name in executor_names):
        node = executor.build(bind_call("aten.relu.default", (x,), {}))
        for dims in ((3, 6), (4, 5), (1, 1), (4, 6)):
            y = torch.randn(*dims)
            assert torch.equal(node.run(node.call.rebind((y,), {})), torch.relu(y)), executor.name
        for dims in ((5, 6), (2, 12), (24,)):
            node = executor.build(bind_call("aten.relu.default", (x,), {}))
            with pytest.raises(OpError, match="new dims do not fit its max dims"):
                node.run(node.call.rebind((torch.randn(*dims),), {}))
        # a SymInt grows the output past its allocation: the formula's shape must fit
        rows = torch.randn(8, 4)
        node = executor.build(bind_call("aten.slice_copy.Tensor", (rows, 0, 0, SymInt(4), 1), {}))
        got = node.run(node.call.rebind((rows, 0, 0, SymInt(2), 1), {}))
        assert torch.equal(got, rows[:2]), executor.name
        node = executor.build(bind_call("aten.slice_copy.Tensor", (rows, 0, 0, SymInt(2), 1), {}))
        with pytest.raises(OpError, match=r"out cannot take the resized shape within its "
                                          r"allocation \(got \[4, 4\], expected at most \[2, 4\]\)"):
            node.run(node.call.rebind((rows, 0, 0, SymInt(4), 1), {}))


def test_adapter_is_present():
    assert adapter_line()


def test_binding_above_the_device_limit_fails_at_build_naming_op_and_tensor(executor_names):
    """A graph whose output needs more than one storage binding may hold fails when the
    native runner builds it, naming the op's target and the tensor (no crash, no run)."""
    import subprocess

    import torch

    if "native" not in executor_names:
        pytest.skip("runs on the native runner (--executor leaves it out)")

    info = subprocess.run([str(native.runner_path()), "--device-info"], capture_output=True,
                          text=True, check=True).stdout
    limits = dict(re.findall(r"^(max\w+) (\d+)$", info, re.M))
    binding, buffer = int(limits["maxStorageBufferBindingSize"]), int(limits["maxBufferSize"])
    if binding + 4 > buffer:
        pytest.skip("the device's maxBufferSize does not exceed its maxStorageBufferBindingSize")
    pad = binding // 4  # pad + 1 floats: 4 bytes more than one binding may hold
    with pytest.raises(OpError) as err:
        native.call("aten.constant_pad_nd.default", torch.zeros(1, 1), [0, pad], 0.0)
    message = str(err.value)
    assert message.startswith("WebGPU aten.constant_pad_nd.default: tensor value 3 (float32[1, "
                              f"{pad + 1}]) is too large for one storage binding"), message
    assert "expected at most maxStorageBufferBindingSize" in message


def test_default_tolerance_catches_a_fourth_digit_error():
    """A case that states no tolerance compares float32 outputs within 1e-5 + 1e-5 * |x|
    (Case.tolerance): a kernel wrong in the fourth significant digit fails it, float32
    rounding passes; float16 outputs default to 1e-3."""
    import torch

    from codegen.executors.cases import CaseRun, compare
    from codegen.language import Case

    run = CaseRun(catalog().op("relu"), Case("default_tolerance"))
    want = torch.linspace(-300.0, 300.0, 1001, dtype=torch.float64)
    compare(run, want.float(), want)  # float32 rounding: within
    off = want.clone()
    off[500 + 123] *= 1 + 2e-4  # the fourth digit
    with pytest.raises(AssertionError, match="relu\\[default_tolerance\\] output 0"):
        compare(run, off.float(), want)
    compare(run, (want * (1 + 5e-4)).half(), want)  # float16: within 1e-3
    assert Case("x").tolerance("float32") == (1e-5, 1e-5)
    assert Case("x", atol=1e-4).tolerance("float32") == (1e-4, 1e-5)


def test_int64_values_outside_int32_fail_loud():
    """int64 tensors are int32 on the GPU: a torch.ops-style call with a value outside
    int32 is refused naming the argument, the element and the value (as the .pte runtime
    refuses such an input), never truncated (add of 2**40 and 1 once gave 1)."""
    import torch

    from codegen.executors.call import bind_call

    big = torch.tensor([1, 2 ** 40], dtype=torch.int64)
    with pytest.raises(ValueError, match=r"argument 'other' element 1 = 1099511627776 does "
                                         r"not fit the graph's int32"):
        harness.call("aten.add.Tensor", torch.ones(2, dtype=torch.int64), big)
    with pytest.raises(ValueError, match=r"tensors\[1\] element 1 = -1099511627776"):
        bind_call("aten.cat.default", ([big.clamp(max=5), -big],), {})
    edge = torch.tensor([-(2 ** 31), 2 ** 31 - 1], dtype=torch.int64)
    assert torch.equal(harness.call("aten.add.Tensor", edge, torch.zeros(2, dtype=torch.int64)),
                       edge)
