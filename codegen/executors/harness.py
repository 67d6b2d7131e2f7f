"""The wgpu-py executor: ops run on a real WebGPU adapter from Python.

It runs the exact shader text each `_wgsl.h` embeds, with Params packed by the layout
engine and everything else (checks, routes, grids, overrides, scratch shapes) decided by
interpreting the op's lowering (`codegen.lower.interpret`), as the generated C++ does.
`call(target, *args)` is a drop-in for `torch.ops.<target>(*args)`.
"""

from __future__ import annotations

import struct
from typing import Any

from codegen.executors.call import BoundCall, bind_call
from codegen.executors.interface import Executor, results, tensor_bytes, tensor_from_bytes, \
    write_back
from codegen.executors.wgpu_device import (COPY_VEC4_PER_INVOCATION, COPY_WORKGROUP_SIZE,
                                           buffer_size, copy_pipeline, device, pipeline)
from codegen.lower import interpret
from codegen.spec import expr as E
from codegen.spec.args import OutputList, Outputs
from codegen.spec.dtypes import nbytes
from codegen.spec.failures import fail
from codegen.spec.grids import elementwise_grid
from codegen.spec.scalar_args import Ignored


class Node:
    """One op built on the device: buffers at the build shapes, pipelines compiled."""

    def __init__(self, call: BoundCall, force: tuple[str, ...] = ()):
        import wgpu

        self.call, self.force = call, tuple(force)
        _, self.dev = device()
        self.max_per_dim = self.dev.limits["max-compute-workgroups-per-dimension"]
        self.plans = interpret.plan(call.lowering, call.values, self.max_per_dim, self.force)
        usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
        self.buffers: dict[int, Any] = {}  # id(Value) -> GPUBuffer
        for v in call.input_tensors() + [v for v in call.outputs if v.kind == "Tensor"]:
            self.buffers[id(v)] = self.dev.create_buffer(size=buffer_size(nbytes(v.dtype, v.dims)),
                                                         usage=usage)
        # scratch tensors: allocated at the build shape, like graph.add_tensor in the C++
        self.built_scratch = dict(self.plans.scratch)
        self.scratch = {s.name: self.dev.create_buffer(
            size=buffer_size(nbytes(s.dtype, self.plans.scratch[s.name])), usage=usage)
            for s in self.bound.op.scratch}
        self._write_inputs(call)

    @property
    def bound(self):
        return self.call.bound

    @property
    def routes(self) -> list[str]:
        """The kernel each compute dispatch ran (what the cases assert)."""
        return [p.kernel.name for p in self.plans if p.kernel is not None and p.run]

    def run(self, live: BoundCall | None = None):
        if live is not None:
            self._resize(live)
        encoder = self.dev.create_command_encoder()
        keep: list = []
        self.encode_all(encoder, keep)
        self.dev.queue.submit([encoder.finish()])
        write_back(self.call, lambda i, v: self._read(self.buffers[id(v)], v))
        return results(self.call, lambda i, v: self._read(self.buffers[id(v)], v))

    def _read(self, buffer, v):
        n = nbytes(v.dtype, v.dims)
        raw = bytes(self.dev.queue.read_buffer(buffer, 0, max(4, -(-n // 4) * 4)))
        return tensor_from_bytes(raw, v.dtype, v.dims)

    def _write_inputs(self, call: BoundCall) -> None:
        for v in call.input_tensors():
            data = tensor_bytes(v.data, v.dtype)
            data += bytes(-len(data) % 4)  # queue writes need whole 4-byte words
            if data:
                self.dev.queue.write_buffer(self.buffers[id(v)], 0, data)

    # --- resize: the live call takes over the built buffers ---------------------------
    def _take_buffer(self, name: str, old, new) -> None:
        op = self.bound.op
        if old.kind != new.kind:
            raise fail(op.name, name, "changed kind after the build", new.kind, old.kind)
        if op.resize == "static" and new.dims != old.dims:
            raise fail(op.name, name, "was resized, but this op supports static shapes only",
                       E.format_value(list(new.dims)), E.format_value(list(old.dims)))
        if nbytes(new.dtype, new.dims) > self.buffers[id(old)].size:  # the build's allocation
            raise ValueError(f"live shape {list(new.dims)} of {name!r} exceeds the built shape")
        self.buffers[id(new)] = self.buffers.pop(id(old))

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
            elif old.kind == "SymInt" and new.kind not in ("SymInt", "Int"):
                raise fail(op.name, a.name, "must stay an int (it is a SymInt)", new.kind, "SymInt")
            elif old.kind != "SymInt" and (old.kind, old.data) != (new.kind, new.data) and \
                    not isinstance(a, Ignored):
                # only a SymInt may change without a rebuild (the graph holds the rest as constants)
                raise fail(op.name, a.name, "is a build-time value and cannot change without a "
                           "rebuild", E.format_value(new.data), E.format_value(old.data))

    def _resize(self, live: BoundCall) -> None:
        self._take_inputs(live)
        # the outputs keep their buffers and take the formula's shape, as the C++ hook does
        shapes = interpret.output_shapes(live.lowering, live.values)
        for old, new in zip(self.call.outputs, live.outputs):
            if old.kind == "Tensor":
                self.buffers[id(new)] = self.buffers.pop(id(old))
        ol = self.bound.output_list
        names = [ol.item.name] * len(live.outputs) if ol else [o.name for o in self.bound.op.outputs]
        per_item = shapes.get(ol.item.name, []) if ol else []
        for k, (name, v) in enumerate(zip(names, live.outputs)):
            dims = per_item[k] if ol else shapes.get(name)
            if v.kind == "Tensor" and dims is not None:
                v.dims = tuple(dims)
        plans = interpret.plan(live.lowering, live.values, self.max_per_dim, self.force)
        for s in self.bound.op.scratch:
            dims, built = plans.scratch[s.name], self.built_scratch[s.name]
            if nbytes(s.dtype, dims) > nbytes(s.dtype, built) or len(dims) != len(built):
                raise fail(self.bound.op.name, s.name, "cannot take the resized shape within its "
                           "allocation", E.format_value(dims), "at most " + E.format_value(built))
        for old, new in zip(self.plans, plans):
            if old.run != new.run or old.route != new.route:
                raise fail(self.bound.op.name, "inputs", "were resized into a different kernel "
                           "route", new.kernel.name if new.kernel else "copy",
                           old.kernel.name if old.kernel else "copy")
        self.call, self.plans = live, plans
        self._write_inputs(live)

    # --- recording --------------------------------------------------------------------
    def _buffer_of(self, name: str, item: int = -1):
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

    def encode_all(self, encoder, keep: list, timestamps: tuple | None = None) -> None:
        """Records the whole op. `timestamps` = (query_set, begin, end) writes GPU
        timestamps at the start of its first step and the end of its last."""
        steps = [i for i, p in enumerate(self.plans) if p.run]
        for index in steps:
            writes = None
            if timestamps and index in (steps[0], steps[-1]):
                query_set, begin, end = timestamps
                writes = {"query_set": query_set}
                if index == steps[0]:
                    writes["beginning_of_pass_write_index"] = begin
                if index == steps[-1]:
                    writes["end_of_pass_write_index"] = end
            self.encode(encoder, index, keep, writes)

    def encode(self, encoder, index: int, keep: list, timestamp_writes=None) -> None:
        """Records dispatch `index` (a compute pass, or a copy) into `encoder`; buffers it
        creates go to `keep` until the submit. Benchmarks time one dispatch with it."""
        import wgpu

        p = self.plans[index]
        d = self.bound.dispatches[p.index]
        if not p.run:
            return
        if p.kernel is None:
            src, dst = self._buffer_of(d.spec.src), self._buffer_of(d.spec.dst)
            n = p.nbytes if src is not dst else 0
            if n or timestamp_writes:
                self._encode_flat_copy(encoder, src, dst, n, keep, timestamp_writes)
            return
        pipe, group_layout = pipeline(p.kernel, p.overrides, d)
        entries = []
        if d.layout:
            ubuf = self.dev.create_buffer_with_data(data=d.layout.pack(p.params),
                                                    usage=wgpu.BufferUsage.UNIFORM)
            keep.append(ubuf)
            entries.append({"binding": 0, "resource": {"buffer": ubuf}})
        per_output = d.foreach.item.name if d.foreach is not None else None
        for b in d.spec.bindings:
            # a tensor-list entry (Bind.item), or the output of a per-output dispatch
            buf = self._buffer_of(b.arg, p.item if b.arg == per_output else b.item)
            if buf is None:  # an absent optional tensor: a dummy of one element
                buf = self.dev.create_buffer(size=16, usage=wgpu.BufferUsage.STORAGE)
                keep.append(buf)
            entries.append({"binding": len(entries), "resource": {"buffer": buf}})
        group = self.dev.create_bind_group(layout=group_layout, entries=entries)
        cpass = encoder.begin_compute_pass(**({"timestamp_writes": timestamp_writes}
                                              if timestamp_writes else {}))
        cpass.set_pipeline(pipe)
        cpass.set_bind_group(0, group)
        cpass.dispatch_workgroups(*p.grid)
        cpass.end()

    def _encode_flat_copy(self, encoder, src, dst, n: int, keep: list,
                          timestamp_writes=None) -> None:
        """A Copy step, run as the C++ runtime runs it: the runtime's copy_words kernel
        (a compute pass, so it can also carry timestamps when there is nothing to copy)."""
        import wgpu

        pipe = copy_pipeline()
        num_vec4 = -(-n // 16)
        cpass = encoder.begin_compute_pass(**({"timestamp_writes": timestamp_writes}
                                              if timestamp_writes else {}))
        if num_vec4:
            ubuf = self.dev.create_buffer_with_data(data=struct.pack("<4I", num_vec4, 0, 0, 0),
                                                    usage=wgpu.BufferUsage.UNIFORM)
            keep.append(ubuf)
            group = self.dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
                {"binding": 0, "resource": {"buffer": ubuf}},
                {"binding": 1, "resource": {"buffer": src}},
                {"binding": 2, "resource": {"buffer": dst}}])
            cpass.set_pipeline(pipe)
            cpass.set_bind_group(0, group)
            cpass.dispatch_workgroups(*elementwise_grid(-(-num_vec4 // COPY_VEC4_PER_INVOCATION),
                                                        COPY_WORKGROUP_SIZE, self.max_per_dim))
        cpass.end()


class Harness(Executor):
    name = "harness"

    def build(self, call: BoundCall, force: tuple[str, ...] = ()) -> Node:
        return Node(call, force)


EXECUTOR = Harness()


def build(target: str, *args, absent_outputs: tuple = (), **kwargs) -> Node:
    """Builds the op; `absent_outputs` names optional outputs the graph leaves Null."""
    return EXECUTOR.build(bind_call(target, args, kwargs, absent_outputs))


def build_forced(target: str, kernels: tuple[str, ...], *args, **kwargs) -> Node:
    """`build`, but each dispatch that has a route to one of `kernels` runs that kernel
    (benchmarks and route-agreement tests)."""
    return EXECUTOR.build(bind_call(target, args, kwargs), force=tuple(kernels))


def call(target: str, *args, **kwargs):
    """`torch.ops.<target>(*args, **kwargs)`, computed on the WebGPU adapter."""
    return EXECUTOR.call(target, *args, **kwargs)
