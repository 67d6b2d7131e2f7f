"""The Python interpreter of a lowering: what the generated C++ computes, step for step.

`plan(lowering, values, max_per_dim)` runs the plan steps on a call's graph values and
returns the dispatches to record (kernel, Params values, grid, overrides) and the scratch
shapes; `output_shapes(lowering, values)` runs the resize steps. A failed check raises
`OpError` with the text the C++ throws. One function per step kind, like the emitter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from codegen.lower import steps as S
from codegen.language import expr as E
from codegen.language.args import OutputList
from codegen.language.bind import BoundParams
from codegen.language.dispatch import Kernel
from codegen.graph.errors import OpError, fail, let_failure
from codegen.language.features import missing
from codegen.language.layout import parse_type
from codegen.graph.values import Value


@dataclass
class DispatchPlan:
    index: int
    run: bool
    kernel: Kernel | None = None  # None for a copy
    route: int = 0
    params: dict[str, Any] = field(default_factory=dict)
    grid: tuple[int, int, int] = (1, 1, 1)
    overrides: dict[str, float] = field(default_factory=dict)
    nbytes: int = 0
    item: int = -1  # a foreach dispatch: the position of its output in the OutputList
    active: bool = True  # Dispatch.active: recorded, but run only while this holds


class Plan(list):
    """The DispatchPlans of one op call, plus the shapes of its scratch tensors."""

    def __init__(self, dispatches=(), scratch: dict[str, list[int]] | None = None):
        super().__init__(dispatches)
        self.scratch = dict(scratch or {})
        self.symint: int | None = None  # the value of the op's SymIntOutput


def evaluate(e: E.Expr, env: dict) -> Any:
    try:
        return e.evaluate(env)
    except E.EvalError as err:
        raise OpError(str(err)) from None


@dataclass
class _State:
    lowering: S.Lowering
    values: list[Value]
    max_per_dim: int = 0
    force: tuple[str, ...] = ()
    features: frozenset[str] = frozenset()  # the device's WebGPU features
    env: dict[str, Any] = field(default_factory=dict)
    plan: Plan = field(default_factory=Plan)
    shared: dict[str, dict[str, Any]] = field(default_factory=dict)  # block -> packed values
    shapes: dict[str, Any] = field(default_factory=dict)  # resize: output -> formula shape

    @property
    def op(self) -> str:
        return self.lowering.bound.op.name

    def item_envs(self, each) -> list[dict]:
        """One environment per output of the OutputList (its item and index bound) or per
        entry of a TensorList (its index bound)."""
        item = each.item.name if isinstance(each, OutputList) else None
        return [{**self.env, **({item: info} if item else {}), each.index: i}
                for i, info in enumerate(self.env[each.name])]


def _read_arg(st: _State, s: S.ReadArg) -> None:
    defaults = st.lowering.bound.defaults
    fallback: Callable[[], Any] = lambda: evaluate(defaults[s.arg.name], st.env)  # noqa: E731
    st.env.update(s.arg.read(st.values[s.index], st.op, fallback))


def _check_one(op: str, t, info: E.TensorInfo, label: str = "") -> None:
    label = label or t.name
    if info.dtype not in t.dtypes:
        raise fail(op, label, "has an unsupported dtype", info.dtype, " or ".join(t.dtypes))
    if t.rank is not None:
        lo, hi = (t.rank, t.rank) if isinstance(t.rank, int) else t.rank
        if not lo <= info.rank <= hi:
            raise fail(op, label, "has the wrong rank", str(info.rank),
                       str(lo) if lo == hi else f"{lo}..{hi}")


def _check_tensor(st: _State, s: S.CheckTensor) -> None:
    info = st.env[s.tensor.name]
    if info.present:
        _check_one(st.op, s.tensor, info)


def _check_tensor_list(st: _State, s: S.CheckTensorList) -> None:
    t, items = s.arg, st.env[s.arg.name]
    if t.max_items is not None and len(items) > t.max_items:
        raise fail(st.op, t.name, "holds too many tensors", str(len(items)),
                   f"at most {t.max_items}")
    for info in items:
        if not info.present and not t.optional_items:
            raise fail(st.op, t.name, "holds a None entry", "None", "a tensor")
        if info.present:
            _check_one(st.op, t, info)


def _check_output_items(st: _State, s: S.CheckOutputItems) -> None:
    for i, info in enumerate(st.env[s.arg.name]):
        if info.present:
            _check_one(st.op, s.arg.item, info, f"{s.arg.name}[{i}]")


def _let(st: _State, s: S.Let) -> None:
    try:
        st.env[s.name] = s.expr.evaluate(st.env)
    except E.EvalError as err:
        raise let_failure(st.op, f"{s.name} = {s.expr.text}", str(err)) from None


def _guard(st: _State, s: S.CheckGuard) -> None:
    g = s.guard
    if not evaluate(g.check, st.env):
        expected = "".join(p if isinstance(p, str) else E.format_value(evaluate(p, st.env))
                           for p in g.expected)
        raise fail(st.op, g.guard.arg, g.guard.what, E.format_value(evaluate(g.got, st.env)),
                   expected)


def _check_output_count(st: _State, s: S.CheckOutputCount) -> None:
    want = evaluate(s.count, st.env)
    if len(st.env[s.arg.name]) != want:
        raise fail(st.op, s.arg.name, "holds the wrong number of outputs",
                   str(len(st.env[s.arg.name])), str(want))


def _output_shape(st: _State, s: S.OutputShape) -> None:
    if s.each is not None:
        envs = st.item_envs(s.each)
        if s.resize:
            st.shapes[s.name] = [evaluate(s.shape, ie) for ie in envs]
            return
        for i, ie in enumerate(envs):
            _check_dims(st.op, f"{s.each.name}[{i}]", ie[s.name].dims, evaluate(s.shape, ie))
        return
    if not st.env[s.name].present:
        return
    want = evaluate(s.shape, st.env)
    if s.resize:
        st.shapes[s.name] = want
    else:
        _check_dims(st.op, s.name, st.env[s.name].dims, want)


def _check_dims(op: str, label: str, dims, want) -> None:
    if list(dims) != list(want):
        raise fail(op, label, "has dims that do not match the op's output shape",
                   E.format_value(list(dims)), E.format_value(want))


def _set_symint(st: _State, s: S.SetSymInt) -> None:
    st.plan.symint = evaluate(s.value, st.env)


def _scratch_shape(st: _State, s: S.ScratchShape) -> None:
    dims = evaluate(s.shape, st.env)
    st.plan.scratch[s.scratch.name] = dims
    st.env[s.scratch.name] = E.TensorInfo(tuple(dims), s.scratch.dtype)


def _narrow(op: str, name: str, scalar: str, v: Any) -> Any:
    if scalar == "f32":
        return float(v)
    if isinstance(v, bool):
        return int(v)
    lo, hi = (0, 2**32 - 1) if scalar == "u32" else (-(2**31), 2**31 - 1)
    if not lo <= v <= hi:
        raise fail(op, name, f"does not fit {scalar}", str(v),
                   "0..4294967295" if scalar == "u32" else "-2147483648..2147483647")
    return v


def pack_values(op: str, block: BoundParams, env: dict) -> dict[str, Any]:
    """The block's field values, checked to fit their WGSL types."""
    out = {}
    for name, e in block.exprs.items():
        t = parse_type(block.types[name])
        v = evaluate(e, env)
        if t.components > 1:
            if len(v) != t.components:
                raise fail(op, name, "needs one value per component", str(len(v)),
                           str(t.components))
            out[name] = [_narrow(op, name, t.scalar, x) for x in v]
        else:
            out[name] = _narrow(op, name, t.scalar, v)
    return out


def _pack_params(st: _State, s: S.PackParams) -> None:
    st.shared[s.block.struct_name] = pack_values(st.op, s.block, st.env)


def _dispatch_plan(st: _State, d, env: dict, item: int = -1) -> DispatchPlan:
    p = DispatchPlan(d.index, run=bool(evaluate(d.when, env)) if d.when is not None else True,
                     item=item)
    if not p.run:
        return p
    if d.active is not None:
        p.active = bool(evaluate(d.active, env))
    if d.params is not None:
        p.params = (st.shared[d.params.struct_name] if d.params.shared
                    else pack_values(st.op, d.params, env))
    forced = [j for j, r in enumerate(d.routes) if r.route.kernel.name in st.force]
    for j, r in enumerate(d.routes):
        if forced:
            if j == forced[0]:
                break
        elif not missing(r.route.kernel.features, st.features) and (
                r.when is None or evaluate(r.when, env)):
            break
    p.route, p.kernel = j, r.route.kernel
    lacking = missing(p.kernel.features, st.features)
    if lacking:  # only a forced route gets here
        raise fail(st.op, "route", f"{p.kernel.name} needs device features the device lacks",
                   E.format_value(sorted(st.features)), ", ".join(lacking))
    sizes = {k: evaluate(e, env) for k, e in r.grid.items()}
    p.grid = r.route.grid.evaluate(sizes, p.kernel.workgroup, st.max_per_dim)
    p.overrides = {k: float(evaluate(e, env)) for k, e in r.overrides.items()}
    return p


def _dispatch(st: _State, s: S.RunKernel) -> None:
    d = s.dispatch
    if d.foreach is None:
        st.plan.append(_dispatch_plan(st, d, st.env))
        return
    for i, ie in enumerate(st.item_envs(d.foreach)):
        st.plan.append(_dispatch_plan(st, d, ie, item=i))


def _copy(st: _State, s: S.CopyBuffer) -> None:
    d = s.dispatch
    p = DispatchPlan(d.index, run=bool(evaluate(d.when, st.env)) if d.when is not None else True)
    p.nbytes = evaluate(d.nbytes, st.env)
    st.plan.append(p)


RUN = {S.ReadArg: _read_arg, S.CheckTensor: _check_tensor, S.CheckTensorList: _check_tensor_list,
       S.CheckOutputItems: _check_output_items, S.Let: _let, S.CheckGuard: _guard,
       S.CheckOutputCount: _check_output_count, S.OutputShape: _output_shape,
       S.SetSymInt: _set_symint,
       S.ScratchShape: _scratch_shape, S.PackParams: _pack_params, S.RunKernel: _dispatch,
       S.CopyBuffer: _copy}


def _run(st: _State, steps: list) -> _State:
    for s in steps:
        RUN[type(s)](st, s)
    return st


def plan(lowering: S.Lowering, values: list[Value], max_per_dim: int,
         force: tuple[str, ...] = (), features: frozenset[str] = frozenset()) -> Plan:
    """`force` names kernels to run instead of the routes' choice where a dispatch has
    one of them (benchmarks and route-agreement tests; the C++ has no such knob).
    `features`: the device's WebGPU features; a route whose kernel needs one it lacks is
    passed over (forcing it is an error)."""
    return _run(_State(lowering, values, max_per_dim, tuple(force), frozenset(features)),
                lowering.plan).plan


def output_shapes(lowering: S.Lowering, values: list[Value]) -> dict[str, Any]:
    """The spec's output shapes for the live inputs (what a resize hook applies): a
    shape per present output, or the list of shapes of an OutputList's item."""
    steps = lowering.resize or S.resize_steps(lowering.bound)
    return _run(_State(lowering, values), steps).shapes



def environment(lowering: S.Lowering, values: list[Value]) -> dict[str, Any]:
    """The scope once the call is checked (arguments, lets, scratch shapes): what the
    op's flops and bytes formulas read."""
    steps = [s for s in lowering.plan if not isinstance(s, (S.PackParams, S.RunKernel,
                                                            S.CopyBuffer))]
    return _run(_State(lowering, values), steps).env
