"""What the Python-side executors (the wgpu harness, the browser) share: an op built from
its plan, with buffers allocated at the build shapes, and the resize rule.

`PlannedNode` interprets the op's lowering (`codegen.lower.interpret`) at build and on
every resize, exactly as the generated handler and its resize hook do. A subclass says
how a buffer is allocated (`allocate`) and how the plan runs (`run`); the resize rule
lives here once:
- tensors keep their buffers: an input's live shape keeps its rank and each dim within
  the dim it was built with (as the native runtime's `set_input_dims`); a static op's
  inputs must not change shape;
- only a SymInt may change without a rebuild; every other value is a build constant;
- outputs take the spec formula's shape for the live inputs, of the built rank and at
  most the built element count (as `utils::resize_output`); scratch tensors must fit
  their allocation; the re-plan must choose the same dispatches and routes.
"""

from __future__ import annotations

from math import prod
from typing import Any

from codegen.executors.call import BoundCall
from codegen.lower import interpret
from codegen.language import expr as E
from codegen.language.args import OutputList, Outputs
from codegen.graph.dtypes import nbytes
from codegen.graph.errors import fail
from codegen.language.constant_args import Constant


def buffer_size(n: int) -> int:
    """Whole 16-byte units, as the runtime allocates: any tensor may be read as vec4s."""
    return max(16, -(-n // 16) * 16)


class PlannedNode:
    """One op built from its plan (see the module note); `buffers` maps id(Value) to the
    subclass's buffer handle, `built_dims` to the shape it was allocated for."""

    def __init__(self, call: BoundCall, force: tuple[str, ...], max_per_dim: int,
                 features: frozenset[str]):
        """`features`: the device's WebGPU features, which the routes choose by."""
        self.call, self.force, self.max_per_dim = call, tuple(force), max_per_dim
        self.features = frozenset(features)
        self.plans = interpret.plan(call.lowering, call.values, max_per_dim, self.force,
                                    self.features)
        self._take_symint(call, self.plans)
        self.buffers: dict[int, Any] = {}
        self.built_dims: dict[int, tuple[int, ...]] = {}
        for v in call.input_tensors() + [v for v in call.outputs if v.kind == "Tensor"]:
            self.built_dims[id(v)] = tuple(v.dims)
            self.buffers[id(v)] = self.allocate(buffer_size(nbytes(v.dtype, v.dims)))
        # scratch tensors: allocated at the build shape, like graph.add_tensor in the C++
        self.built_scratch = dict(self.plans.scratch)
        self.scratch = {s.name: self.allocate(buffer_size(nbytes(s.dtype, self.plans.scratch[s.name])))
                        for s in self.bound.op.scratch}

    def allocate(self, size: int) -> Any:
        raise NotImplementedError

    @property
    def bound(self):
        return self.call.bound

    @property
    def routes(self) -> list[str]:
        """The kernel each compute dispatch ran (what the cases assert)."""
        return [p.kernel.name for p in self.plans
                if p.kernel is not None and p.run and p.active]

    def tensor_values(self) -> list:
        return self.call.input_tensors() + [v for v in self.call.outputs if v.kind == "Tensor"]

    def buffer_of(self, name: str, item: int = -1):
        """The buffer bound for tensor `name` (a tensor-list entry or an OutputList item
        with `item`); None for an absent optional tensor."""
        if name in self.scratch:
            return self.scratch[name]
        for a, v in zip(self.bound.op.args, self.call.values):
            if isinstance(a, OutputList) and a.item.name == name:
                return self.buffers.get(id(v.data[item]))
            if isinstance(a, Outputs):
                for oi, iv in zip(a.items, v.data):
                    if oi.name == name:
                        return self.buffers.get(id(iv))
            elif a.name == name:
                if item >= 0:  # a tensor-list entry; None when absent
                    return self.buffers.get(id(v.data[item])) if item < len(v.data) else None
                return self.buffers.get(id(v))
        raise KeyError(name)

    # --- the resize rule ------------------------------------------------------------------
    def resize(self, live: BoundCall) -> None:
        """Re-plans for `live` (a rebound call) and hands it the built buffers."""
        self._take_inputs(live)
        shapes = interpret.output_shapes(live.lowering, live.values)
        for old, new in zip(self.call.outputs, live.outputs):
            if old.kind == "Tensor":
                self._move(old, new)
        ol = self.bound.output_list
        names = [f"{ol.name}[{k}]" for k in range(len(live.outputs))] if ol else \
            [o.name for o in self.bound.op.outputs]
        for k, (name, v) in enumerate(zip(names, live.outputs)):
            dims = shapes.get(ol.item.name, [])[k] if ol else shapes.get(name)
            if v.kind == "Tensor" and dims is not None:
                self._fit_output(name, v, tuple(dims))
        plans = interpret.plan(live.lowering, live.values, self.max_per_dim, self.force,
                               self.features)
        self._check_replan(plans)
        self._take_symint(live, plans)
        self.call, self.plans = live, plans

    @staticmethod
    def _take_symint(call: BoundCall, plans) -> None:
        """An op returning a SymInt: its value, computed on the host by the plan."""
        if plans.symint is not None:
            call.values[-1].data = plans.symint

    def _move(self, old, new) -> None:
        self.buffers[id(new)] = self.buffers.pop(id(old))
        self.built_dims[id(new)] = self.built_dims.pop(id(old))

    def _fit_output(self, name: str, v, dims: tuple[int, ...]) -> None:
        built = self.built_dims[id(v)]
        if len(dims) != len(built) or prod(dims) > prod(built):
            raise fail(self.bound.op.name, name, "cannot take the resized shape within its "
                       "allocation", E.format_value(list(dims)),
                       "at most " + E.format_value(list(built)))
        v.dims = dims

    def _take_buffer(self, name: str, old, new) -> None:
        op = self.bound.op
        if old.kind != new.kind:
            raise fail(op.name, name, "changed kind after the build", new.kind, old.kind)
        built = self.built_dims[id(old)]
        if len(new.dims) != len(built) or any(not 0 <= d <= b for d, b in zip(new.dims, built)):
            raise fail(op.name, name, "new dims do not fit its max dims",
                       E.format_value(list(new.dims)),
                       f"rank {len(built)} and each dim within {E.format_value(list(built))}")
        if op.resize == "static" and new.dims != old.dims:
            raise fail(op.name, name, "was resized, but this op supports static shapes only",
                       E.format_value(list(new.dims)), E.format_value(list(old.dims)))
        self._move(old, new)

    def _take_inputs(self, live: BoundCall) -> None:
        op = self.bound.op
        for a, old, new in zip(op.inputs, self.call.values[:-1], live.values[:-1]):
            if old.kind == "Tensor":
                self._take_buffer(a.name, old, new)
            elif old.kind == "ValueList":
                if len(old.data) != len(new.data):
                    raise fail(op.name, a.name, "changed length after the build",
                               str(len(new.data)), str(len(old.data)))
                for oi, ni in zip(old.data, new.data):
                    if oi.kind == "Tensor" or ni.kind == "Tensor":
                        self._take_buffer(a.name, oi, ni)
                    elif oi.kind != "SymInt" and (oi.kind, oi.data) != (ni.kind, ni.data):
                        raise fail(op.name, a.name, "holds a build-time value that cannot "
                                   "change without a rebuild", E.format_value(ni.data),
                                   E.format_value(oi.data))
            elif old.kind == "SymInt" and new.kind not in ("SymInt", "Int"):
                raise fail(op.name, a.name, "must stay an int (it is a SymInt)", new.kind, "SymInt")
            elif old.kind != "SymInt" and (old.kind, old.data) != (new.kind, new.data) and \
                    not isinstance(a, Constant):
                # only a SymInt may change without a rebuild (the graph holds the rest as constants)
                raise fail(op.name, a.name, "is a build-time value and cannot change without a "
                           "rebuild", E.format_value(new.data), E.format_value(old.data))

    def _check_replan(self, plans) -> None:
        op = self.bound.op.name
        for s in self.bound.op.scratch:
            dims, built = plans.scratch[s.name], self.built_scratch[s.name]
            if nbytes(s.dtype, dims) > nbytes(s.dtype, built) or len(dims) != len(built):
                raise fail(op, s.name, "cannot take the resized shape within its allocation",
                           E.format_value(dims), "at most " + E.format_value(built))
        for old, new in zip(self.plans, plans):
            if old.run != new.run:  # the C++ hook's message (cpp_dispatch._run_check)
                raise fail(op, "inputs", "were resized into a different set of dispatches",
                           E.format_value(new.run), E.format_value(old.run))
            if old.route != new.route:
                raise fail(op, "inputs", "were resized into a different kernel route",
                           new.kernel.name if new.kernel else "copy",
                           old.kernel.name if old.kernel else "copy")
