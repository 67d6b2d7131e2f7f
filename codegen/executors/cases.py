"""Spec cases as runnable checks, shared by the test suite, both executors and `opgen bench`.

A case binds its call once (`bind`, absent outputs included) and runs it through any
executor (`codegen.executors.interface.Executor`: the wgpu harness, the native runner),
then compares with PyTorch in float64 (floating inputs promoted), or bit for bit with
float32 torch for cases marked exact.

A case pinned to a route whose kernel needs WebGPU features (`Kernel(features=...)`)
runs twice: as written, where it must take that route (an executor whose device lacks
the features fails it), and on the executor's device without those features
(`CaseRun.masked`), where it must take the fallback the routes choose there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codegen.executors.call import BoundCall, bind_call, torch_args, torch_op
from codegen.executors.interface import Executor
from codegen.lower import interpret
from codegen.language.bind import BoundOp
from codegen.graph.errors import OpError
from codegen.language.features import FEATURES
from codegen.graph.inputs import SymInt, TensorInput, materialize
from codegen.language.op import Case


@dataclass
class CaseRun:
    op: BoundOp
    case: Case
    masked: tuple[str, ...] = ()  # run on a device without these WebGPU features

    @property
    def id(self) -> str:
        base = f"{self.op.op.name}[{self.case.name}]"
        return base + "".join(f"/no-{f}" for f in self.masked)

    @property
    def target(self) -> str:
        return self.op.op.targets[0]

    def args(self) -> tuple:
        return materialize(self.case.args, self.id)

    def kwargs(self) -> dict:
        return {k: materialize(v, f"{self.id}/{k}") for k, v in self.case.kwargs.items()}

    def resized_args(self, args: tuple) -> tuple:
        """The case's arguments with the tensors named in `resize` at their live shapes and
        the SymInts named there at their new values."""
        names = [a.name for a in self.op.op.inputs]
        out = list(args)
        for name, dims in self.case.resize.items():
            i = names.index(name)
            if isinstance(dims, int):  # a SymInt's new value
                out[i] = SymInt(dims)
                continue
            spec = self.case.args[i]
            if isinstance(spec, list) and all(isinstance(x, int) for x in spec):
                # an int list with SymInt dims: their new values (the rest must stay)
                out[i] = [SymInt(x) if isinstance(o, SymInt) else x for o, x in zip(spec, dims)]
                continue
            if isinstance(spec, list):  # a tensor list: one live shape per entry
                out[i] = [_resized(s, d, f"{self.id}/resized/{name}/{j}")
                          for j, (s, d) in enumerate(zip(spec, dims))]
                continue
            out[i] = _resized(spec, dims, f"{self.id}/resized/{name}")
        return tuple(out)

    def bind(self, args: tuple, kwargs: dict) -> BoundCall:
        """The case's call, bound once for any executor (absent outputs included)."""
        return bind_call(self.target, args, kwargs, tuple(self.case.absent_outputs))


def _resized(spec: TensorInput, dims, seed_text: str):
    return TensorInput(spec.kind, tuple(dims), spec.dtype, spec.low, spec.high).make(seed_text)


def all_case_runs(catalog) -> list[CaseRun]:
    """Every case, plus the masked twins of each case pinned to a feature route: one per
    non-empty subset of its features (a float16 subgroup route's twins take the packed
    subgroup route, the shader-f16 one without subgroups, and the portable one)."""
    runs = []
    for b in sorted(catalog.ops, key=lambda b: b.op.name):
        kernels = {k.name: k for k in b.op.kernels()}
        for c in b.op.cases:
            runs.append(CaseRun(b, c))
            features = kernels[c.route].features if c.route else ()
            for subset in _subsets(features):
                runs.append(CaseRun(b, c, subset))
    return runs


def _subsets(features: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The non-empty subsets of `features`, the single features first, in their order."""
    out = [()]
    for f in features:
        out += [s + (f,) for s in out]
    return sorted(out[1:], key=len)


def planned_routes(run: CaseRun, args: tuple, kwargs: dict, features) -> list[str]:
    """The kernels the routes choose for the case's call on a device with `features`."""
    call = run.bind(args, kwargs)
    plans = interpret.plan(call.lowering, call.values, 65535, (), frozenset(features))
    return [p.kernel.name for p in plans if p.kernel is not None and p.run and p.active]


def masked_routes(run: CaseRun) -> list[str]:
    """The routes a masked run takes on a device with every other feature."""
    return planned_routes(run, run.args(), run.kwargs(), set(FEATURES) - set(run.masked))


def golden_with_args(run: CaseRun, args: tuple, kwargs: dict) -> tuple[Any, tuple]:
    """torch's result for the case and the arguments it ran on."""
    return reference(run.op, run.target, args, kwargs, to_float64=not run.case.exact)


def reference(bound: BoundOp, target: str, args: tuple, kwargs: dict | None = None,
              to_float64: bool = True) -> tuple[Any, tuple]:
    """torch's result for the op and the arguments it ran on (copies, floats promoted to
    float64 when `to_float64`: in-place ops such as a KV-cache update mutate these, never
    the caller's tensors)."""
    import torch

    def promote(v):
        if isinstance(v, (list, tuple)):
            return type(v)(promote(x) for x in v)
        if isinstance(v, torch.Tensor):
            return v.to(torch.float64) if v.is_floating_point() and to_float64 else v.clone()
        return v

    promoted = tuple(promote(a) for a in torch_args(bound, args))
    promoted_kwargs = {k: promote(v) for k, v in (kwargs or {}).items()}
    if bound.op.reference is not None:
        return bound.op.reference(*promoted, **promoted_kwargs), promoted
    op = torch_op(bound.op.golden or target)
    try:
        return op(*promoted, **promoted_kwargs), promoted
    except RuntimeError:
        if not to_float64:
            raise
    # Kernels torch has only for float32/16 (_weight_int8pack_mm) are referenced in the
    # case's own dtypes.
    return reference(bound, target, args, kwargs, to_float64=False)


def _clone(args: tuple) -> tuple:
    import torch

    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


def _bit_exact(got, want) -> bool:
    """float32 bit for bit (so -0.0, infinities and subnormals count; float16 widened,
    which keeps every bit of it), except that a NaN matches any NaN: torch does not
    specify NaN payloads or signs."""
    import torch

    got, want = got.to(torch.float32), want.to(torch.float32)
    nan = torch.isnan(want)
    return torch.equal(torch.isnan(got), nan) and torch.equal(
        got[~nan].view(torch.int32), want[~nan].view(torch.int32))


def compare(run: CaseRun, got: Any, want: Any, placeholders: tuple[bool, ...] = ()) -> None:
    """Raises AssertionError describing the first mismatch (placeholder outputs: shape only)."""
    import torch

    gots = list(got) if isinstance(got, (tuple, list)) else [got]
    wants = list(want) if isinstance(want, (tuple, list)) else [want]
    assert len(gots) == len(wants), f"{run.id}: {len(gots)} outputs, torch gives {len(wants)}"
    for i, (g, w) in enumerate(zip(gots, wants)):
        if g is None:
            continue
        if not isinstance(w, torch.Tensor):  # a SymInt (int) result
            assert isinstance(g, int) and g == int(w), f"{run.id} output {i}: {g!r}, torch {w!r}"
            continue
        assert tuple(g.shape) == tuple(w.shape), f"{run.id} output {i}: shape {tuple(g.shape)}, torch {tuple(w.shape)}"
        if i < len(placeholders) and placeholders[i]:
            continue  # the reference leaves its contents unspecified
        if run.case.steps and not w.is_floating_point():
            _within_steps(run, i, g, w)
            continue
        if run.case.exact or not w.is_floating_point():
            assert g.dtype == w.dtype or not w.is_floating_point(), f"{run.id} output {i}: dtype {g.dtype}, torch {w.dtype}"
            same = torch.equal(g.to(w.dtype), w) if not w.is_floating_point() else _bit_exact(
                g, w.to(torch.float32))
            assert same, f"{run.id} output {i}: not bit-exact"
            continue
        # float64 on both sides: some references compute in float32 whatever the inputs.
        # A float16 output is compared with the exact result rounded to float16 (what a
        # correctly rounded kernel stores: an infinity past 65504, zero below 2^-25).
        if g.dtype == torch.float16:
            w = w.to(torch.float16)
        atol, rtol = run.case.tolerance(str(g.dtype).removeprefix("torch."))
        torch.testing.assert_close(g.to(torch.float64), w.to(torch.float64), atol=atol, rtol=rtol,
                                   equal_nan=True, msg=lambda m: f"{run.id} output {i}: {m}")


STEPS_SHARE = 0.01  # the share of elements a Case(steps=...) lets differ


def _within_steps(run: CaseRun, i: int, got, want) -> None:
    """An integer output within `run.case.steps` of the golden on every element, and off
    it on at most one element or STEPS_SHARE of them (a systematic error, e.g. truncating
    instead of rounding, moves far more)."""
    import torch

    diff = (got.to(torch.int64) - want.to(torch.int64)).abs()
    worst = int(diff.max()) if diff.numel() else 0
    off = int((diff != 0).sum())
    assert worst <= run.case.steps, \
        f"{run.id} output {i}: off by {worst} steps (at most {run.case.steps} allowed)"
    assert off <= max(1, STEPS_SHARE * diff.numel()), \
        f"{run.id} output {i}: {off} of {diff.numel()} elements off (at most one, or " \
        f"{STEPS_SHARE:.0%}, may be)"


def rejection(run: CaseRun, executor: Executor) -> str:
    """Runs a negative case on `executor`; returns the error message, which must contain
    the case's `raises` text."""
    args, kwargs = run.args(), run.kwargs()
    try:
        node = executor.build(run.bind(args, kwargs))
        if run.case.resize:
            node.run(run.bind(run.resized_args(args), kwargs))
    except OpError as e:
        assert run.case.raises in str(e), f"{run.id}: error {str(e)!r} lacks {run.case.raises!r}"
        return str(e)
    raise AssertionError(f"{run.id}: expected an error containing {run.case.raises!r}, got none")


@dataclass
class Ran:
    """One run of a case: the arguments it ran with (the resized ones when the case
    resizes), its outputs, the kernels that ran and the executor's copies of the inputs
    it may write."""

    args: tuple
    kwargs: dict
    got: Any
    routes: list[str]
    mutated: dict[int, Any]


def run_case(run: CaseRun, executor: Executor) -> Ran:
    """Builds the case on `executor` and runs it, resized when the case says so."""
    args, kwargs = run.args(), run.kwargs()
    mine = _clone(args)  # the executor writes mutable inputs back into its own copies
    call = run.bind(mine, kwargs)
    node = executor.build(call)
    if run.case.resize:
        args = run.resized_args(args)
        mine = _clone(args)
        call = run.bind(mine, kwargs)
        got = node.run(call)
    else:
        got = node.run()
    return Ran(args, kwargs, got, node.routes, {i: mine[i] for i in call.mutable_inputs()})


def check(run: CaseRun, ran: Ran, features: frozenset[str] | None = None) -> None:
    """The run's outputs and in-place writes match torch's, and it took the case's route
    (a masked run: the routes chosen on its device, whose `features` the executor gave)."""
    want, torch_inputs = golden_with_args(run, ran.args, ran.kwargs)
    compare(run, ran.got, want, tuple(o.placeholder for o in run.op.op.outputs))
    for i, t in ran.mutated.items():
        compare(run, t, torch_inputs[i])
    if run.masked:
        kernels = {k.name: k for k in run.op.op.kernels()}
        ran_kernels = [r for r in ran.routes if r in kernels]
        wrong = [r for r in ran_kernels if set(kernels[r].features) & set(run.masked)]
        assert not wrong, f"{run.id}: ran {wrong} on a device without {', '.join(run.masked)}"
        planned = planned_routes(run, ran.args, ran.kwargs, features or frozenset())
        assert ran_kernels == planned, f"{run.id}: ran {ran_kernels}, the routes choose {planned}"
    elif run.case.route:
        assert run.case.route in ran.routes, \
            f"{run.id}: ran {ran.routes}, expected route {run.case.route!r}" + (
                f" (the device's optional features: {sorted(features)})"
                if features is not None else "")


def executor_for(run: CaseRun, executor: Executor) -> Executor:
    """`executor`, on a device without the run's masked features when it has some."""
    return executor.without(run.masked) if run.masked else executor


def execute(run: CaseRun, executor: Executor) -> list[str]:
    """Runs one case on `executor` (without the masked features for a masked run) and
    checks it; returns the routes that ran."""
    executor = executor_for(run, executor)
    if run.case.raises:
        rejection(run, executor)
        return []
    ran = run_case(run, executor)
    feature_route = run.masked or any(k.features for k in run.op.op.kernels()
                                      if k.name == run.case.route)
    check(run, ran, executor.features() if feature_route else None)
    return ran.routes
