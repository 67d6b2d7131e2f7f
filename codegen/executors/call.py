"""The bound call: a torch-style op call as the graph values every executor runs.

`bind_call(target, args, kwargs, absent_outputs)` maps the arguments onto the spec's
arguments (each through its argument kind's `graph_value`), takes the output shapes
and dtypes from torch's meta kernels (or, where torch cannot give them, from the spec's
formulas) and marks optional outputs the graph leaves out. A case binds once and hands
the same `BoundCall` to any executor (`codegen.executors.interface`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from codegen.lower import interpret
from codegen.lower.catalog import catalog, lowering
from codegen.lower.steps import Lowering
from codegen.language.args import OutputList, Outputs, Tensor
from codegen.language.bind import BoundOp
from codegen.language.checked import SpecError
from codegen.language.dispatch import Copy, Dispatch
from codegen.graph.dtypes import graph_dtype
from codegen.graph.errors import OpError
from codegen.paths import REPO_ROOT
from codegen.language.scalar_args import Int
from codegen.language.schema import cached_schema, import_namespace, schema_default
from codegen.graph.values import NULL, Value


def torch_op(target: str):
    import torch

    ns, name, overload = target.split(".")
    import_namespace(ns, [target])
    return getattr(getattr(getattr(torch.ops, ns), name), overload)


@dataclass
class BoundCall:
    """An op call turned into typed graph values (what every executor runs)."""

    target: str
    lowering: Lowering
    values: list[Value]  # one per spec argument; the last is the output (or ValueList)
    multi_output: bool
    torch_out_dtypes: list[Any] = field(default_factory=list)
    absent_outputs: tuple = ()

    @property
    def bound(self) -> BoundOp:
        return self.lowering.bound

    @property
    def outputs(self) -> list[Value]:
        last = self.values[-1]
        return list(last.data) if last.kind == "ValueList" else [last]

    def input_tensors(self) -> list[Value]:
        """Every input tensor value, tensor-list entries included, in argument order."""
        out = []
        for v in self.values[:-1]:
            if v.kind == "Tensor":
                out.append(v)
            elif v.kind == "ValueList":
                out.extend(iv for iv in v.data if iv.kind == "Tensor")
        return out

    def mutable_inputs(self) -> list[int]:
        """Positions of the inputs the op writes in place (schema `Tensor(a!)`)."""
        return [i for i, a in enumerate(self.bound.op.inputs)
                if isinstance(a, Tensor) and a.mutable]

    def rebind(self, args: tuple, kwargs: dict) -> "BoundCall":
        """The same op with new arguments (a resize), keeping the absent outputs."""
        return bind_call(self.target, args, kwargs, self.absent_outputs)


def torch_args(bound: BoundOp, args: tuple) -> tuple:
    """What torch itself accepts for these arguments: the graph may carry an `int`
    argument as an integral Double or as None for its default (the spec decodes both),
    torch wants the int."""
    def for_torch(a, v):
        if isinstance(a, Int) and isinstance(v, float) and math.isfinite(v) and v == int(v):
            return int(v)
        if isinstance(a, Int) and v is None and not a.optional and a.default is not None:
            return a.default
        return v
    return tuple(for_torch(a, v) for a, v in zip(bound.op.inputs, args)) + tuple(
        args[len(bound.op.inputs):])


@dataclass(frozen=True)
class SchemaArg:
    name: str
    kwarg_only: bool
    has_default: bool
    default: Any


def schema_args(target: str):
    """(torch op or None, its schema arguments): the cached schema when the op's library
    is not installed here (no torch op then: no meta shapes either)."""
    try:
        top = torch_op(target)
    except SpecError:
        schema = cached_schema(target, REPO_ROOT / "generated" / "torch_schemas.json")
        text, star = schema["schema"], schema["schema"].find("*,")
        return None, [SchemaArg(name, star >= 0 and text.find(f" {name}") > star, bool(default),
                                schema_default(default[0], stype) if default else None)
                      for name, stype, *default in schema["args"]]
    return top, [SchemaArg(a.name, a.kwarg_only, a.has_default_value(),
                           a.default_value if a.has_default_value() else None)
                 for a in top._schema.arguments]


def _given(target: str, schema: list[SchemaArg], args: tuple, kwargs: dict) -> list[Any]:
    unknown = set(kwargs) - {sa.name for sa in schema}
    if unknown:
        raise TypeError(f"{target}: unexpected argument {sorted(unknown)[0]!r}")
    given = []
    for i, sa in enumerate(schema):
        if i < len(args):
            given.append(args[i])
        elif sa.name in kwargs:
            given.append(kwargs[sa.name])
        elif sa.has_default:
            given.append(sa.default)
        else:
            raise TypeError(f"{target}: missing argument {sa.name!r}")
    return given


def _to_meta(v):
    import torch

    if isinstance(v, dict):
        return {k: _to_meta(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_to_meta(x) for x in v)
    return v.detach().to("meta") if isinstance(v, torch.Tensor) else v


def shape_run(op, args, kwargs):
    """torch's result of `op` for its output shapes and dtypes: from the meta kernel,
    else (ops without one) from a CPU run."""
    try:
        return op(*_to_meta(args), **_to_meta(kwargs))
    except (NotImplementedError, RuntimeError):
        return op(*args, **kwargs)


def _torch_outputs(top, schema: list[SchemaArg], for_torch: tuple):
    """Output shapes and dtypes from torch (keyword-only arguments by keyword)."""
    pos = [v for v, sa in zip(for_torch, schema) if not sa.kwarg_only]
    kw = {sa.name: v for v, sa in zip(for_torch, schema) if sa.kwarg_only}
    result = shape_run(top, pos, kw)
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    return [tuple(t.shape) for t in results], [str(t.dtype).replace("torch.", "") for t in results]


def bind_call(target: str, args: tuple, kwargs: dict, absent_outputs: tuple = ()) -> BoundCall:
    """Maps torch-style arguments onto the spec's arguments and allocates outputs with
    the shapes torch's meta kernels give (the spec's golden's, when it names one).
    `absent_outputs` names optional outputs the graph does not request (bound as Null)."""
    import torch

    by_target = catalog().by_target()
    if target not in by_target:
        raise KeyError(f"no spec implements {target!r} (known: {', '.join(sorted(by_target))})")
    low = lowering(by_target[target].op.name)
    bound = low.bound
    top, schema = schema_args(target)
    given = _given(target, schema, args, kwargs)
    for a, v in zip(bound.op.inputs, given):  # what the graph will not carry, checked here
        a.check_constant(v, bound)
    values = [a.graph_value(v) for a, v in zip(bound.op.inputs, given)]
    if bound.op.symint_output is not None:  # computed on the host: no tensor to allocate
        return BoundCall(target, low, values + [Value("SymInt", 0)], False, [],
                         tuple(absent_outputs))
    if top is not None and bound.op.golden:
        top = torch_op(bound.op.golden)  # what the op computes, outputs included
    try:
        if top is None:
            raise LookupError(f"{target}: no torch op to take output shapes from")
        shapes, dtypes = _torch_outputs(top, schema, torch_args(bound, tuple(given)))
    except (RuntimeError, ValueError, TypeError, IndexError, AssertionError, ArithmeticError,
            LookupError, AttributeError):
        # torch rejects these arguments (Python meta kernels check with assert, or fail on
        # a None they do not expect), or torch does not know the op here: give the outputs the spec's formula shape (or none)
        # and let the plan decide (the spec's guards must reject what torch rejects)
        shapes, dtypes = _formula_shapes(low, values), _fallback_dtypes(bound, values)
    outs = [Value("Tensor", None, graph_dtype(d), s) for s, d in zip(shapes, dtypes)]
    last = bound.op.args[-1]
    for i, o in enumerate(bound.op.outputs if isinstance(last, Outputs) else []):
        if o.name in absent_outputs:
            if not o.optional:
                raise ValueError(f"{target}: output {o.name!r} is not optional")
            outs[i] = NULL
    multi = isinstance(last, (Outputs, OutputList))
    out_value = Value("ValueList", outs) if multi else outs[0]
    return BoundCall(target, low, values + [out_value], multi,
                     [getattr(torch, d) for d in dtypes], tuple(absent_outputs))


def _fallback_dtypes(bound: BoundOp, values: list[Value]) -> list[str]:
    """Output dtypes without torch: a `dtype` argument's when one is given (conversions),
    else the first input tensor's when the output allows it (copies, elementwise ops),
    else the output's first declared dtype."""
    import torch

    first = next((v.dtype for v in values if v.kind == "Tensor"), None)
    for a, v in zip(bound.op.inputs, values):
        if a.name == "dtype" and isinstance(v.data, torch.dtype):
            first = graph_dtype(str(v.data).replace("torch.", ""))
    return [first if first in o.dtypes else o.dtypes[0] for o in bound.op.outputs]


def _formula_shapes(low: Lowering, values: list[Value]) -> list[tuple[int, ...]]:
    bound = low.bound
    if bound.output_list is not None:
        return []  # how many outputs a rejected call has is unknown: give none
    placeholders = [Value("Tensor", None, o.dtypes[0], ()) for o in bound.op.outputs]
    last = placeholders[0] if len(placeholders) == 1 and not isinstance(
        bound.op.args[-1], Outputs) else Value("ValueList", placeholders)
    try:
        formula = interpret.output_shapes(low, values + [last])
    except (OpError, KeyError, AttributeError, TypeError):
        formula = {}
    # a formula that yields a negative dim (e.g. an unresolved -1) names no real tensor
    return [tuple(d) if all(x >= 0 for x in d) else () for d in
            (formula.get(o.name, ()) for o in bound.op.outputs)]


def written_outputs(bound: BoundOp, count: int) -> set[int]:
    """Positions of the outputs some dispatch or copy writes (an output the op never
    writes, e.g. batch norm's save_mean in inference, reads back as None)."""
    if bound.output_list is not None:
        return set(range(count))
    names = set()
    for d in bound.dispatches:
        if isinstance(d.spec, Copy):
            names.add(d.spec.dst)
        elif isinstance(d.spec, Dispatch):
            names.update(b.arg for b in d.spec.bindings if b.write)
    return {i for i, o in enumerate(bound.op.outputs) if o.name in names}
