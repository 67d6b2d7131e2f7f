"""The Python twin of a generated handler's plan function.

Given the values of an op's arguments, runs the same steps in the same order as the
C++ (`plan_<op>` in generated/ops/...): dtype and rank checks, lets, guards, output
shape checks, then per dispatch its route, Params values, grid and overrides. Errors
carry the exact message the C++ throws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from codegen.spec import expr as E
from codegen.spec.layout import parse_type
import math

from codegen.spec.model import (BoundOp, Copy, Elementwise, Kernel, Output, OutputList, Outputs, Rows,
                           Scratch, Tensor, TensorList, Tiles)


class OpError(RuntimeError):
    """A failed check: the same text as the native runtime's webgpu_delegate::Error."""


def fail(op: str, argument: str, what: str, got: str, expected: str) -> OpError:
    return OpError(f"WebGPU {op}: {argument} {what} (got {got}, expected {expected})")


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


class Plan(list):
    """The DispatchPlans of one op call, plus the shapes of its scratch tensors."""

    def __init__(self, dispatches=(), scratch: dict[str, list[int]] | None = None):
        super().__init__(dispatches)
        self.scratch = dict(scratch or {})


def tensor_args(bound: BoundOp) -> list[Tensor]:
    """Input and output tensors (and tensor lists) in the order the C++ checks them (an
    OutputList's item is checked per output, after these)."""
    out = []
    for a in bound.op.args:
        if isinstance(a, Outputs):
            out.extend(a.items)
        elif isinstance(a, (Tensor, TensorList)):
            out.append(a)
    return out


def _check_tensor(name: str, t, info: E.TensorInfo, label: str = "") -> None:
    label = label or t.name
    if info.dtype not in t.dtypes:
        raise fail(name, label, "has an unsupported dtype", info.dtype, " or ".join(t.dtypes))
    if t.rank is not None:
        lo, hi = (t.rank, t.rank) if isinstance(t.rank, int) else t.rank
        if not lo <= info.rank <= hi:
            raise fail(name, label, "has the wrong rank", str(info.rank),
                       str(lo) if lo == hi else f"{lo}..{hi}")


def integral_to_int(v: float, op: str, argument: str) -> int:
    """Twin of utils::integral_to_int: an integral Double read as an `int` argument."""
    if not (math.isfinite(v) and v == math.trunc(v) and -(2.0**63) <= v < 2.0**63):
        raise fail(op, argument, "is not an integral number", E.format_value(v),
                   "an integer in int64 range")
    return int(v)


def read_int(kind: str, value, op: str, argument: str, symbolic: bool) -> int:
    """Twin of utils::read_int: an Int, a SymInt (when symbolic) or an integral Double."""
    if kind == "Int" or (kind == "SymInt" and symbolic):
        return int(value)
    if kind == "Double":
        return integral_to_int(float(value), op, argument)
    raise fail(op, argument, "has the wrong value type", kind,
               "Int, SymInt or an integral Double" if symbolic else "Int or an integral Double")


def item_envs(bound: BoundOp, env: dict) -> list[dict]:
    """One environment per output of the op's OutputList (its item and index bound)."""
    ol: OutputList = bound.output_list
    return [{**env, ol.item.name: info, ol.index: i} for i, info in enumerate(env[ol.name])]


def ceil_div(a: int, b: int) -> int:
    if b <= 0:
        raise OpError(f"ceil_div divisor must be positive (got {b})")
    return -((-a) // b)


def elementwise_grid(count: int, wg_x: int, max_per_dim: int) -> tuple[int, int, int]:
    if count < 0:
        raise OpError(f"elementwise_grid: negative count {count}")
    groups = max(1, ceil_div(count, wg_x))
    if groups <= max_per_dim:
        return (groups, 1, 1)
    rows = ceil_div(groups, max_per_dim)
    if rows > max_per_dim:
        raise OpError(f"elementwise_grid: {count} invocations exceed the 2-D dispatch limit")
    return (max_per_dim, rows, 1)


def tiles_grid(x: int, y: int, z: int, tx: int, ty: int, max_per_dim: int) -> tuple[int, int, int]:
    gx, gy, gz = max(1, ceil_div(x, tx)), max(1, ceil_div(y, ty)), max(1, z)
    if max(gx, gy, gz) > max_per_dim:
        raise OpError(f"tiles_grid: {gx}x{gy}x{gz} workgroups exceed the per-dimension limit "
                      f"{max_per_dim}")
    return (gx, gy, gz)


def _eval(e: E.Expr, env: dict) -> Any:
    try:
        return e.evaluate(env)
    except E.EvalError as err:
        raise OpError(str(err)) from None


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


def check_tensors(bound: BoundOp, env: dict) -> None:
    name = bound.op.name
    for t in tensor_args(bound):
        if isinstance(t, TensorList):
            items = env[t.name]
            if len(items) > t.max_items:
                raise fail(name, t.name, "holds too many tensors", str(len(items)),
                           f"at most {t.max_items}")
            for info in items:
                if not info.present and not t.optional_items:
                    raise fail(name, t.name, "holds a None entry", "None", "a tensor")
                if info.present:
                    _check_tensor(name, t, info)
            continue
        info: E.TensorInfo = env[t.name]
        if info.present:
            _check_tensor(name, t, info)
    ol = bound.output_list
    if ol is not None:
        for i, info in enumerate(env[ol.name]):
            if info.present:
                _check_tensor(name, ol.item, info, f"{ol.name}[{i}]")


def output_shapes(bound: BoundOp, env: dict) -> dict[str, list[int]]:
    """The spec's output shapes for the live inputs (what a resize hook applies)."""
    env = dict(env)
    for name, e in bound.lets.items():
        try:
            env[name] = e.evaluate(env)
        except (E.EvalError, KeyError, AttributeError):
            pass  # lets the shape formulas do not need may read outputs
    ol = bound.output_list
    if ol is not None:  # the item's formula, once per output: a list of shapes
        return {ol.item.name: [_eval(bound.shapes[ol.item.name], ie)
                               for ie in item_envs(bound, env)]}
    return {n: _eval(e, env) for n, e in bound.shapes.items() if env[n].present}


def plan(bound: BoundOp, env: dict, max_per_dim: int, force: tuple[str, ...] = ()) -> Plan:
    """`force` names kernels to run instead of the routes' choice where a dispatch has
    one of them (benchmarks and route-agreement tests; the C++ has no such knob)."""
    op = bound.op.name
    env = dict(env)
    check_tensors(bound, env)
    for name, e in bound.lets.items():
        env[name] = _eval(e, env)
    for g in bound.guards:
        if not _eval(g.check, env):
            expected = "".join(p if isinstance(p, str) else E.format_value(_eval(p, env))
                               for p in g.expected)
            raise fail(op, g.guard.arg, g.guard.what, E.format_value(_eval(g.got, env)), expected)
    ol = bound.output_list
    if ol is not None:
        want_count = _eval(bound.count, env)
        if len(env[ol.name]) != want_count:
            raise fail(op, ol.name, "holds the wrong number of outputs", str(len(env[ol.name])),
                       str(want_count))
        for i, ie in enumerate(item_envs(bound, env)):
            want = _eval(bound.shapes[ol.item.name], ie)
            if list(ie[ol.item.name].dims) != list(want):
                raise fail(op, f"{ol.name}[{i}]", "has dims that do not match the op's output "
                           "shape", E.format_value(list(ie[ol.item.name].dims)),
                           E.format_value(want))
    for n, e in bound.shapes.items():
        if ol is None and env[n].present:
            want = _eval(e, env)
            if list(env[n].dims) != list(want):
                raise fail(op, n, "has dims that do not match the op's output shape",
                           E.format_value(list(env[n].dims)), E.format_value(want))
    scratch = {}
    for s in bound.op.scratch:
        scratch[s.name] = _eval(bound.scratch[s.name], env)
        env[s.name] = E.TensorInfo(tuple(scratch[s.name]), s.dtype)
    plans = Plan(scratch=scratch)
    for d in bound.dispatches:
        if d.foreach is not None:
            for i, ie in enumerate(item_envs(bound, env)):
                plans.append(_dispatch_plan(op, d, ie, max_per_dim, item=i, force=force))
            continue
        plans.append(_dispatch_plan(op, d, env, max_per_dim, force=force))
    return plans


def _dispatch_plan(op: str, d, env: dict, max_per_dim: int, item: int = -1,
                   force: tuple[str, ...] = ()) -> DispatchPlan:
    p = DispatchPlan(d.index, run=bool(_eval(d.when, env)) if d.when is not None else True,
                     item=item)
    if isinstance(d.spec, Copy):
        p.nbytes = _eval(d.copy["nbytes"], env)
        return p
    if not p.run:
        return p
    for name, e in d.params.items():
        t = parse_type(d.spec.params[name].type)
        v = _eval(e, env)
        if t.components > 1:
            if len(v) != t.components:
                raise fail(op, name, "needs one value per component", str(len(v)),
                           str(t.components))
            p.params[name] = [_narrow(op, name, t.scalar, x) for x in v]
        else:
            p.params[name] = _narrow(op, name, t.scalar, v)
    forced = [j for j, r in enumerate(d.routes) if r.route.kernel.name in force]
    for j, r in enumerate(d.routes):
        if (j == forced[0]) if forced else (r.when is None or _eval(r.when, env)):
            break
    p.route, p.kernel = j, r.route.kernel
    g = r.route.grid
    if isinstance(g, Elementwise):
        p.grid = elementwise_grid(_eval(r.grid["count"], env),
                                  p.kernel.workgroup[0] * g.per_invocation, max_per_dim)
    elif isinstance(g, Rows):
        p.grid = elementwise_grid(_eval(r.grid["count"], env), 1, max_per_dim)
    elif isinstance(g, Tiles):
        p.grid = tiles_grid(_eval(r.grid["x"], env), _eval(r.grid["y"], env),
                            _eval(r.grid["z"], env), g.tile[0], g.tile[1], max_per_dim)
    p.overrides = {k: float(_eval(e, env)) for k, e in r.overrides.items()}
    return p
