"""Binding an op: every expression of the spec parsed and type checked in the op's scope.

`bind(op, spec_file)` returns a `BoundOp`, what the lowering (`codegen.lower`) turns into
steps. Scopes grow in declaration order: arguments (a default reads only the arguments
before it), lets, then scratch tensors; an OutputList's item and index are in scope only
in per-output expressions, a TensorList's index only in its foreach dispatches. Every problem is a `SpecError` naming the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from codegen.language import expr as E
from codegen.language.args import Output, OutputList, Outputs, SymIntOutput, Tensor, TensorList
from codegen.language.checked import SpecError, expr_text, ident
from codegen.language.dispatch import Copy, Dispatch, Params, Route, pascal
from codegen.graph.dtypes import F16, F32, WGSL_ELEM
from codegen.language.layout import LayoutError, StructLayout, layout_struct, parse_type
from codegen.language.op import Guard, Op
from codegen.language.constant_args import Constant


@dataclass
class BoundParams:
    """A Params block: its C++/WGSL struct layout and the value expression of each field.
    `shared` blocks (a `Params(...)` object) are packed once per call, before the
    dispatches; a dispatch's own block is packed with it."""

    struct_name: str
    layout: StructLayout
    types: dict[str, str]  # field -> WGSL type
    exprs: dict[str, E.Expr]
    shared: bool
    key: Params | None = field(default=None, compare=False)  # the spec's shared block


@dataclass
class BoundRoute:
    route: Route
    when: E.Expr | None
    grid: dict[str, E.Expr]
    overrides: dict[str, E.Expr]


@dataclass
class BoundDispatch:
    index: int
    spec: Union[Dispatch, Copy]
    params: BoundParams | None
    routes: list[BoundRoute]
    when: E.Expr | None
    nbytes: E.Expr | None = None  # a copy's byte count
    foreach: OutputList | TensorList | None = None
    active: E.Expr | None = None  # switched on and off by resizes (Dispatch.active)

    @property
    def layout(self) -> StructLayout | None:
        return self.params.layout if self.params else None

    def item_of(self, bind, item: int) -> int:
        """Which entry binding `bind` takes when the dispatch runs for `item`: a foreach
        dispatch's binding of its OutputList item, or of its TensorList without an item,
        takes the current one; any other binding its own `item` (-1: a plain tensor)."""
        each = self.foreach
        if each is None or bind.item >= 0:
            return bind.item
        current = each.item.name if isinstance(each, OutputList) else each.name
        return item if bind.arg == current else bind.item


@dataclass
class BoundGuard:
    guard: Guard
    check: E.Expr
    got: E.Expr
    expected: list[Union[str, E.Expr]]  # literal text pieces and interpolated exprs


@dataclass
class BoundOp:
    """An op whose expressions are parsed and type checked, ready to lower."""

    op: Op
    spec_file: Path
    scope: dict[str, E.Sym]
    lets: dict[str, E.Expr]
    guards: list[BoundGuard]
    shapes: dict[str, E.Expr]
    dispatches: list[BoundDispatch]
    defaults: dict[str, E.Expr] = field(default_factory=dict)  # nullable scalar -> fallback
    scratch: dict[str, E.Expr] = field(default_factory=dict)  # scratch tensor -> shape
    output_list: OutputList | None = None
    count: E.Expr | None = None  # how many outputs the OutputList must hold
    flops: E.Expr | None = None
    bytes: E.Expr | None = None
    shared_params: list[BoundParams] = field(default_factory=list)
    symint: E.Expr | None = None  # the value of a SymIntOutput

    @property
    def folder(self) -> Path:
        return self.spec_file.parent


class _Binder:
    """The op's scope as it grows, and expression parsing in it."""

    def __init__(self, op: Op):
        self.op = op
        self.scope: dict[str, E.Sym] = {}
        self.item_scope: dict[str, E.Sym] = {}
        self.out_list = op.args[-1] if isinstance(op.args[-1], OutputList) else None

    def parse(self, text: str, what: str, want: tuple[str, ...] | None = None,
              items: dict[str, E.Sym] | None = None) -> E.Expr:
        """`items`: the per-item names (a foreach dispatch's, or the OutputList's)."""
        expr_text(text, what)
        try:
            e = E.Expr(text, {**self.scope, **items} if items else self.scope)
        except E.ExprError as err:
            raise SpecError(f"{what}: {err}") from None
        if want and e.type not in want:
            raise SpecError(f"{what}: {text!r} is {e.type}, expected {' or '.join(want)}")
        return e

    def arguments(self) -> dict[str, E.Expr]:
        """Puts the arguments in scope; returns each nullable scalar's default."""
        defaults: dict[str, E.Expr] = {}
        for a in self.op.args:
            if isinstance(a, Outputs):
                for item in a.items:
                    self.scope[item.name] = E.Sym(item.expr_type(), item.name)
            elif isinstance(a, (OutputList, Constant, SymIntOutput)):
                continue  # an OutputList's item and index are in scope per output only; constants never
            else:
                if getattr(a, "nullable", False):
                    defaults[a.name] = self._default(a)
                self.scope[a.name] = E.Sym(a.expr_type(), a.name, getattr(a, "nullable", False))
        return defaults

    def _default(self, a) -> E.Expr:
        want = {E.FLOAT: (E.FLOAT, E.INT)}.get(a.expr_type(), (a.expr_type(),))
        try:  # a default reads only the arguments before it
            e = E.Expr(a.fallback, self.scope)
        except E.ExprError as err:
            raise SpecError(f"{a.name!r} default: {err}") from None
        if e.type not in want:
            raise SpecError(f"{a.name!r} default: {a.fallback!r} is {e.type}, expected "
                            f"{a.expr_type()}")
        return e

    def lets(self) -> dict[str, E.Expr]:
        lets = {}
        for name, text in self.op.let.items():
            ident(name, "let name")
            lets[name] = self.parse(text, f"let {name!r}")
            self.scope[name] = E.Sym(lets[name].type, name)
        return lets

    def output_count(self) -> E.Expr | None:
        ol = self.out_list
        if ol is None:
            return None
        for n in (ol.item.name, ol.index):
            if n in self.scope:
                raise SpecError(f"OutputList {ol.name!r}: {n!r} is already an argument or "
                                f"let name")
        self.item_scope = {ol.item.name: E.Sym(E.TENSOR, ol.item.name),
                           ol.index: E.Sym(E.INT, ol.index)}
        return self.parse(ol.count, f"OutputList {ol.name!r} count", (E.INT,))

    def guards(self) -> list[BoundGuard]:
        guards = []
        for i, g in enumerate(self.op.guards):
            if not isinstance(g, Guard):
                raise SpecError(f"guards[{i}] must be Guard(check, arg, what, got, expected) "
                                f"(got {g!r})")
            pieces: list[Union[str, E.Expr]] = []
            for j, part in enumerate(re.split(r"\{([^{}]+)\}", g.expected)):
                pieces.append(self.parse(part, f"guards[{i}] expected {{{part}}}")
                              if j % 2 else part)
            guards.append(BoundGuard(g, self.parse(g.check, f"guards[{i}] check", (E.BOOL,)),
                                     self.parse(g.got, f"guards[{i}] got"), pieces))
        return guards

    def shapes(self) -> dict[str, E.Expr]:
        op = self.op
        out_names = [o.name for o in op.outputs]
        for name in op.shapes:
            if name not in out_names:
                raise SpecError(f"shapes names {name!r}, which is not an output (outputs: "
                                f"{', '.join(out_names)})")
        shapes = {}
        for o in op.outputs:
            if o.unused:
                if o.name in op.shapes:
                    raise SpecError(f"output {o.name!r} is unused=True: give it no shapes "
                                    f"formula")
                continue
            if o.name not in op.shapes:
                raise SpecError(f"shapes has no formula for output {o.name!r}; write e.g. "
                                f"shapes={{'{o.name}': 'self.dims'}}")
            shapes[o.name] = self.parse(op.shapes[o.name], f"shapes[{o.name!r}]", (E.INT_LIST,),
                                        items=self.item_scope or None)
        return shapes

    def scratch(self) -> dict[str, E.Expr]:
        scratch = {}
        for s in self.op.scratch:
            scratch[s.name] = self.parse(s.shape, f"scratch {s.name!r} shape", (E.INT_LIST,))
            self.scope[s.name] = E.Sym(E.TENSOR, s.name)
        return scratch

    def tensors(self) -> dict:
        op = self.op
        tensors = {a.name: a for a in op.args if isinstance(a, (Tensor, TensorList))}
        tensors.update({o.name: o for o in op.outputs})
        tensors.update({s.name: s for s in op.scratch})
        return tensors

    def params(self, where: str, d: Dispatch, items: dict | None,
               shared: list[BoundParams]) -> BoundParams | None:
        """The dispatch's Params block; a shared `Params(...)` is bound once (an equal block
        of another dispatch is the same block)."""
        block = d.params
        if isinstance(block, Params):
            if items:
                raise SpecError(f"{where}: a foreach dispatch packs params per output; give it "
                                f"its own params dict, not a shared Params(...)")
            for b in shared:
                if b.key == block:
                    return b
            name = self.op.pascal + pascal(block.name) + "Params"
            bound = self._bind_params(f"{where} params", name, block.fields, False, True)
            bound.key = block
            shared.append(bound)
            return bound
        if not block:
            return None
        return self._bind_params(f"{where} params", self.op.pascal + pascal(d.name) + "Params",
                                 block, items, False)

    def _bind_params(self, where: str, struct_name: str, fields, items: dict | None,
                     shared: bool) -> BoundParams:
        try:
            layout = layout_struct(struct_name, [(k, p.type) for k, p in fields.items()])
        except LayoutError as e:
            raise SpecError(f"{where}: {e}") from None
        exprs = {}
        for k, p in fields.items():
            t = parse_type(p.type)
            want = (E.INT_LIST,) if t.components > 1 else \
                (E.FLOAT, E.INT) if t.scalar == "f32" else (E.INT, E.BOOL)
            exprs[k] = self.parse(p.value, f"{where}[{k!r}]", want, items)
        return BoundParams(struct_name, layout, {k: p.type for k, p in fields.items()}, exprs,
                           shared)

    def routes(self, where: str, d: Dispatch, items: dict | None) -> list[BoundRoute]:
        routes = []
        for r in d.routes:
            rwhere = f"{where} route {r.kernel.name!r}"
            grid = {k: self.parse(text, f"{rwhere} grid {k}", (E.INT,), items)
                    for k, text in r.grid.exprs().items()}
            ov = {}
            for k, text in r.overrides.items():
                kind = r.kernel.overrides[k].type
                ov[k] = self.parse(text, f"{rwhere} override {k!r}",
                                   (E.BOOL,) if kind == "bool" else (E.INT, E.FLOAT, E.BOOL))
            when = self.parse(r.when, f"{rwhere} when", (E.BOOL,), items) if r.when else None
            routes.append(BoundRoute(r, when, grid, ov))
        return routes

    def dispatches(self) -> tuple[list[BoundDispatch], list[BoundParams]]:
        tensors = self.tensors()
        out_list = self.out_list
        dispatches, shared = [], []
        for i, d in enumerate(self.op.dispatches):
            where = f"dispatches[{i}]"
            when = self.parse(d.when, f"{where} when", (E.BOOL,)) if d.when else None
            if isinstance(d, Copy):
                for t in (d.src, d.dst):
                    if t not in tensors or (out_list is not None and t == out_list.item.name):
                        raise SpecError(f"{where} copies {t!r}, which is not a tensor argument")
                dispatches.append(BoundDispatch(i, d, None, [], when, self.parse(
                    d.nbytes, f"{where} nbytes", (E.INT,))))
                continue
            if not isinstance(d, Dispatch):
                raise SpecError(f"{where} must be Dispatch(...) or Copy(...) (got {d!r})")
            each = self._foreach(where, d, tensors)
            items = self._item_names(each)
            self._check_dispatch(where, d, each, tensors)
            active = self.parse(d.active, f"{where} active", (E.BOOL,)) if d.active else None
            dispatches.append(BoundDispatch(i, d, self.params(where, d, items, shared),
                                            self.routes(where, d, items), when, None, each,
                                            active))
        return dispatches, shared

    def _foreach(self, where: str, d: Dispatch, tensors: dict) -> OutputList | TensorList | None:
        """What a foreach dispatch runs once per item of: the OutputList or a TensorList."""
        if not d.foreach:
            return None
        if self.out_list is not None and d.foreach == self.out_list.name:
            return self.out_list
        if isinstance(tensors.get(d.foreach), TensorList):
            t = tensors[d.foreach]
            if t.index in self.scope:
                raise SpecError(f"TensorList {t.name!r}: its index {t.index!r} is already an "
                                f"argument or let name")
            return t
        raise SpecError(f"{where} foreach={d.foreach!r} must name the op's OutputList or a "
                        f"TensorList argument")

    def _item_names(self, each) -> dict[str, E.Sym] | None:
        if each is None:
            return None
        if isinstance(each, OutputList):
            return self.item_scope
        return {each.index: E.Sym(E.INT, each.index)}

    def _check_dispatch(self, where: str, d: Dispatch, each, tensors: dict) -> None:
        out_list = self.out_list
        if each is not None and (len(d.routes) != 1 or d.routes[0].overrides):
            raise SpecError(f"{where}: a foreach dispatch takes one route and no overrides "
                            f"(one kernel, run once per item; its 'when' decides for all "
                            f"items)")
        for b in d.bindings:
            if out_list is not None and b.arg == out_list.item.name and each is None:
                raise SpecError(f"{where} binding {b.name!r} binds the per-output item "
                                f"{b.arg!r}; declare the dispatch with foreach={out_list.name!r}")
            if b.arg not in tensors:
                raise SpecError(f"{where} binding {b.name!r} binds {b.arg!r}, which is not a "
                                f"tensor argument (tensors: {', '.join(tensors)})")
            t = tensors[b.arg]
            current = isinstance(t, TensorList) and t is each and b.item < 0
            if not current and (isinstance(t, TensorList) != (b.item >= 0) or (
                    isinstance(t, TensorList) and t.max_items is not None
                    and b.item >= t.max_items)):
                raise SpecError(f"{where} binding {b.name!r}: item=k (0 <= k < max_items) binds "
                                f"an entry of a TensorList argument and only of one (got "
                                f"item={b.item} for {type(t).__name__} {b.arg!r}); in a "
                                f"dispatch with foreach={b.arg!r}, no item binds the current "
                                f"entry")
            if b.write and isinstance(t, (Tensor, TensorList)) and not isinstance(t, Output) \
                    and not getattr(t, "mutable", False):
                raise SpecError(f"{where} binding {b.name!r} writes input {b.arg!r}; declare it "
                                f"Tensor({b.arg!r}, ..., mutable=True) (a schema Tensor(a!))")
            if b.view and not set(t.dtypes) & {F32, F16}:
                raise SpecError(f"{where} binding {b.name!r}: view={b.view!r} reads float "
                                f"tensors, but {b.arg!r} is {', '.join(t.dtypes)}")
            if not b.elem and not b.view and not (
                    len(t.dtypes) == 1 and t.dtypes[0] in WGSL_ELEM):
                raise SpecError(f"{where} binding {b.name!r}: tensor {b.arg!r} has dtypes "
                                f"{t.dtypes}; give the WGSL element type, e.g. elem='u32'")


def bind(op: Op, spec_file: Path) -> BoundOp:
    b = _Binder(op)
    defaults = b.arguments()
    lets = b.lets()
    count = b.output_count()
    guards = b.guards()
    shapes = b.shapes()
    scratch = b.scratch()
    dispatches, shared = b.dispatches()
    _check_names(op, b.out_list)
    so = op.symint_output
    symint = b.parse(so.value, f"SymIntOutput {so.name!r} value", (E.INT,)) if so else None
    return BoundOp(op, spec_file, b.scope, lets, guards, shapes, dispatches, defaults, scratch,
                   b.out_list, count,
                   b.parse(op.flops, "flops", (E.INT,)) if op.flops else None,
                   b.parse(op.bytes, "bytes", (E.INT,)) if op.bytes else None, shared, symint)


def _check_names(op: Op, out_list: OutputList | None) -> None:
    """Guards and cases name arguments, outputs and kernels the op has."""
    args = [a.name for a in op.args] + [o.name for o in op.outputs]
    if out_list is not None:
        args.append(out_list.item.name)
    for i, g in enumerate(op.guards):
        if g.arg not in args:
            raise SpecError(f"guards[{i}] arg {g.arg!r} is not an argument or output of the op; "
                            f"write the one the check is about ({', '.join(args)})")
    kernels = [k.name for k in op.kernels()]
    inputs = [a.name for a in op.inputs]
    outputs = [o.name for o in op.outputs]
    for c in op.cases:
        where = f"Case {c.name!r}"
        if c.route and c.route not in kernels:
            raise SpecError(f"{where} route {c.route!r} is not a kernel of the op; write one of "
                            f"{', '.join(kernels) or '(none: the op only copies)'}")
        for what, names, known in (("kwargs", c.kwargs, inputs), ("resize", c.resize, inputs),
                                   ("absent_outputs", c.absent_outputs, outputs)):
            for k in names:
                if k not in known:
                    kind = "an output" if what == "absent_outputs" else "an input"
                    raise SpecError(f"{where} {what} names {k!r}, which is not {kind}; write "
                                    f"one of {', '.join(known)}")
