"""The lowering: a bound op as the list of steps its handler runs, in order.

`lower(bound)` is the one place that decides what a handler does and in which order.
The C++ emitter (`codegen.emit.cpp`) renders each step kind with one small function;
the Python interpreter (`codegen.lower.interpret`) runs the same steps for the wgpu
harness (and any other Python-side executor). Neither decides anything the steps do not
say, so the executors cannot drift apart.

A handler has two step lists:
- `plan`: read the arguments, check tensors, lets, guards, output checks, scratch shapes,
  shared Params blocks, then the dispatches and copies (run at build and on every resize);
- `resize` (dynamic ops): read what the output-shape formulas need and give each output
  the formula's shape for the live inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from codegen.language import expr as E
from codegen.language.args import Arg, Output, OutputList, Outputs, Tensor, TensorList
from codegen.language.bind import BoundDispatch, BoundGuard, BoundOp, BoundParams
from codegen.language.dispatch import Copy, Scratch
from codegen.language.constant_args import Constant
from codegen.language.scalar_args import Str


@dataclass(frozen=True)
class ReadArg:
    """Read argument `index` into the scope (an Outputs list reads all its items).
    `mutable`: outputs are read writable (the resize list gives them shapes)."""

    index: int
    arg: Arg
    mutable: bool = False


@dataclass(frozen=True)
class CheckTensor:
    """dtype and rank of one tensor (skipped when an optional one is absent)."""

    tensor: Tensor


@dataclass(frozen=True)
class CheckTensorList:
    """Length, None entries, dtype and rank of each entry of a tensor list."""

    arg: TensorList


@dataclass(frozen=True)
class CheckOutputItems:
    """dtype and rank of each output of an OutputList."""

    arg: OutputList


@dataclass(frozen=True)
class Let:
    name: str
    expr: E.Expr


@dataclass(frozen=True)
class CheckGuard:
    guard: BoundGuard


@dataclass(frozen=True)
class CheckOutputCount:
    arg: OutputList
    count: E.Expr


@dataclass(frozen=True)
class OutputShape:
    """Output `name` must have the formula's shape (`resize=True`: give it that shape).
    `each` is the OutputList whose items the formula is evaluated for, one by one."""

    name: str
    shape: E.Expr
    optional: bool
    each: OutputList | None = None
    resize: bool = False


@dataclass(frozen=True)
class SetSymInt:
    """The op's SymInt output (argument `index`) takes the value of `value`."""

    index: int
    value: E.Expr


@dataclass(frozen=True)
class ScratchShape:
    scratch: Scratch
    shape: E.Expr


@dataclass(frozen=True)
class PackParams:
    """A shared Params block, packed once before the dispatches that use it."""

    block: BoundParams


@dataclass(frozen=True)
class RunKernel:
    """A compute dispatch: pack its Params, pick its route, bind, run."""

    dispatch: BoundDispatch


@dataclass(frozen=True)
class CopyBuffer:
    """A buffer-to-buffer copy (a Copy dispatch of the spec)."""

    dispatch: BoundDispatch


Step = Union[ReadArg, CheckTensor, CheckTensorList, CheckOutputItems, Let, CheckGuard,
             CheckOutputCount, OutputShape, SetSymInt, ScratchShape, PackParams, RunKernel,
             CopyBuffer]


@dataclass(frozen=True)
class Lowering:
    bound: BoundOp
    plan: list[Step]
    resize: list[Step]  # empty for a static op

    @property
    def dispatches(self) -> list[Union[RunKernel, CopyBuffer]]:
        return [s for s in self.plan if isinstance(s, (RunKernel, CopyBuffer))]


def all_exprs(bound: BoundOp) -> list[E.Expr]:
    exprs = list(bound.lets.values()) + list(bound.shapes.values())
    exprs += [bound.count] if bound.count is not None else []
    for g in bound.guards:
        exprs += [g.check, g.got] + [p for p in g.expected if not isinstance(p, str)]
    for b in bound.shared_params:
        exprs += list(b.exprs.values())
    for d in bound.dispatches:
        if d.params and not d.params.shared:
            exprs += list(d.params.exprs.values())
        exprs += [d.nbytes] if d.nbytes is not None else []
        exprs += [d.when] if d.when is not None else []
        exprs += [d.active] if d.active is not None else []
        for r in d.routes:
            exprs += list(r.grid.values()) + list(r.overrides.values())
            exprs += [r.when] if r.when is not None else []
    exprs += list(bound.scratch.values())
    exprs += [bound.symint] if bound.symint is not None else []
    return exprs


def used_names(bound: BoundOp, exprs: list[E.Expr]) -> set[str]:
    """Every argument or let name `exprs` read, and what the defaults of those read."""
    names = {n for e in exprs for n in e.names}
    for a in reversed(bound.op.args):  # a default reads only the arguments before it
        if a.name in names and a.name in bound.defaults:
            names |= set(bound.defaults[a.name].names)
    return names


def null_tested(bound: BoundOp) -> set[str]:
    """The nullable arguments some expression tests with `is None`."""
    return {n for e in all_exprs(bound) for n in e.null_tests}


def let_closure(bound: BoundOp, exprs: list[E.Expr]) -> set[str]:
    """The lets `exprs` need, transitively."""
    need: set[str] = set()
    todo = [n for e in exprs for n in e.names]
    while todo:
        n = todo.pop()
        if n in bound.lets and n not in need:
            need.add(n)
            todo.extend(bound.lets[n].names)
    return need


def _reads(bound: BoundOp, used: set[str], mutable: bool) -> list[ReadArg]:
    """The arguments a function reads: the `used` ones, every output, and (in the plan)
    every input tensor, which it checks."""
    steps = []
    for i, a in enumerate(bound.op.args):
        # a Str is always read: a mode the op does not implement fails even where no
        # expression reads it
        wanted = a.name in used or isinstance(a, (Output, Outputs, OutputList)) or (
            isinstance(a, (Tensor, TensorList)) and not mutable) or (
            isinstance(a, Str) and not mutable)
        if wanted and not isinstance(a, Constant):
            steps.append(ReadArg(i, a, mutable))
    return steps


def _tensor_checks(bound: BoundOp) -> list[Step]:
    """In argument order, so every executor reports the same first error."""
    steps: list[Step] = []
    for a in bound.op.args:
        if isinstance(a, TensorList):
            steps.append(CheckTensorList(a))
        elif isinstance(a, OutputList):
            steps.append(CheckOutputItems(a))
        elif isinstance(a, Outputs):
            steps.extend(CheckTensor(item) for item in a.items)
        elif isinstance(a, Tensor):
            steps.append(CheckTensor(a))
    return steps


def _output_shapes(bound: BoundOp, resize: bool) -> list[OutputShape]:
    ol = bound.output_list
    optional = {o.name: o.optional for o in bound.op.outputs}
    return [OutputShape(name, e, optional[name] and ol is None,
                        ol if ol is not None and name == ol.item.name else None, resize)
            for name, e in bound.shapes.items()]


def lower(bound: BoundOp) -> Lowering:
    plan: list[Step] = _reads(bound, used_names(bound, all_exprs(bound)), mutable=False)
    plan += _tensor_checks(bound)
    plan += [Let(n, e) for n, e in bound.lets.items()]
    plan += [CheckGuard(g) for g in bound.guards]
    if bound.output_list is not None:
        plan.append(CheckOutputCount(bound.output_list, bound.count))
    plan += _output_shapes(bound, resize=False)
    if bound.symint is not None:
        plan.append(SetSymInt(len(bound.op.args) - 1, bound.symint))
    plan += [ScratchShape(s, bound.scratch[s.name]) for s in bound.op.scratch]
    plan += [PackParams(b) for b in bound.shared_params]
    plan += [CopyBuffer(d) if isinstance(d.spec, Copy) else RunKernel(d) for d in bound.dispatches]
    return Lowering(bound, plan, resize_steps(bound) if bound.op.resize == "dynamic" else [])


def resize_steps(bound: BoundOp) -> list[Step]:
    """Read what the output-shape formulas need and give each output its formula's shape.
    (A static op has no resize function; its formulas still give output shapes where
    torch cannot.)"""
    shape_exprs = list(bound.shapes.values())
    needed = let_closure(bound, shape_exprs)
    names = used_names(bound, shape_exprs + [bound.lets[n] for n in needed])
    steps: list[Step] = _reads(bound, names, mutable=True)
    steps += [Let(n, e) for n, e in bound.lets.items() if n in needed]
    return steps + _output_shapes(bound, resize=True)
