"""The wgpu-py executor: ops run on a real WebGPU adapter from Python.

It runs the exact shader text each `_wgsl.h` embeds, with Params packed by the layout
engine and everything else (checks, routes, grids, overrides, scratch shapes) decided by
interpreting the op's lowering (`codegen.lower.interpret`), as the generated C++ does.
`call(target, *args)` is a drop-in for `torch.ops.<target>(*args)`.
"""

from __future__ import annotations

import struct

from codegen.executors.call import BoundCall
from codegen.executors.interface import Executor, results, tensor_bytes, tensor_from_bytes, \
    write_back
from codegen.executors.planned import PlannedNode
from codegen.executors.wgpu_device import (COPY_VEC4_PER_INVOCATION, COPY_WORKGROUP_SIZE,
                                           copy_pipeline, device, features, pipeline)
from codegen.graph.dtypes import nbytes
from codegen.language.grids import elementwise_grid
from codegen.lower.wgsl_module import storage_dummy_bytes


class Node(PlannedNode):
    """One op built on the wgpu device: buffers at the build shapes, pipelines compiled."""

    def __init__(self, call: BoundCall, force: tuple[str, ...] = (),
                 masked: frozenset[str] = frozenset()):
        self.masked = masked
        _, self.dev = device(masked)
        super().__init__(call, force, self.dev.limits["max-compute-workgroups-per-dimension"],
                         features(self.dev))
        self._write_inputs(call)

    def allocate(self, size: int):
        import wgpu

        usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
        return self.dev.create_buffer(size=size, usage=usage)

    def run(self, live: BoundCall | None = None):
        if live is not None:
            self.resize(live)
            self._write_inputs(live)
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

    def encode_all(self, encoder, keep: list, timestamps: tuple | None = None,
                   skip: frozenset[int] = frozenset(), calls: int = 1) -> None:
        """Records the whole op, less the steps in `skip`, `calls` times back to back, in
        one compute pass, as the C++ runtime records a graph (wgpu orders the dependent
        dispatches inside the pass). `timestamps` = (query_set, begin, end) writes GPU
        timestamps at the pass's beginning and end."""
        writes = None
        if timestamps:
            query_set, begin, end = timestamps
            writes = {"query_set": query_set, "beginning_of_pass_write_index": begin,
                      "end_of_pass_write_index": end}
        cpass = encoder.begin_compute_pass(**({"timestamp_writes": writes} if writes else {}))
        for _ in range(calls):
            for index in range(len(self.plans)):
                if index not in skip:
                    self.record(cpass, index, keep)
        cpass.end()

    def encode(self, encoder, index: int, keep: list, timestamp_writes=None) -> None:
        """Records dispatch `index` in a compute pass of its own; buffers it creates go to
        `keep` until the submit. Benchmarks time one dispatch with it."""
        cpass = encoder.begin_compute_pass(**({"timestamp_writes": timestamp_writes}
                                              if timestamp_writes else {}))
        self.record(cpass, index, keep)
        cpass.end()

    def record(self, cpass, index: int, keep: list) -> None:
        """Records dispatch `index` into the open compute pass `cpass`: its kernel, or for
        a Copy step the runtime's copy_words kernel, as the C++ runtime runs it."""
        import wgpu

        p = self.plans[index]
        d = self.bound.dispatches[p.index]
        if not p.run or not p.active:
            return
        if p.kernel is None:
            src, dst = self.buffer_of(d.spec.src), self.buffer_of(d.spec.dst)
            if src is not dst and p.nbytes:
                self._record_flat_copy(cpass, src, dst, p.nbytes, keep)
            return
        pipe, group_layout = pipeline(p.kernel, p.overrides, d, self.masked)
        entries = []
        if d.layout:
            ubuf = self.dev.create_buffer_with_data(data=d.layout.pack(p.params),
                                                    usage=wgpu.BufferUsage.UNIFORM)
            keep.append(ubuf)
            entries.append({"binding": 0, "resource": {"buffer": ubuf}})
        dummies = storage_dummy_bytes(self.bound, d, p.kernel)
        for b, dummy in zip(d.spec.bindings, dummies):
            # a tensor-list entry (Bind.item), or the current item of a foreach dispatch
            buf = self.buffer_of(b.arg, d.item_of(b, p.item))
            if buf is None:  # an absent optional tensor: the binding's dummy
                buf = self.dev.create_buffer(size=dummy, usage=wgpu.BufferUsage.STORAGE)
                keep.append(buf)
            entries.append({"binding": len(entries), "resource": {"buffer": buf}})
        group = self.dev.create_bind_group(layout=group_layout, entries=entries)
        cpass.set_pipeline(pipe)
        cpass.set_bind_group(0, group)
        cpass.dispatch_workgroups(*p.grid)

    def _record_flat_copy(self, cpass, src, dst, n: int, keep: list) -> None:
        import wgpu

        pipe = copy_pipeline(self.masked)
        num_vec4 = -(-n // 16)
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


class Harness(Executor):
    name = "harness"

    def build(self, call: BoundCall, force: tuple[str, ...] = ()) -> Node:
        return Node(call, force, self.masked)

    def features(self) -> frozenset[str]:
        return features(device(self.masked)[1])


EXECUTOR = Harness()


# torch.ops-style entry points (see Executor.build_call and Executor.call)
build = EXECUTOR.build_call
call = EXECUTOR.call


def build_forced(target: str, kernels: tuple[str, ...], *args, **kwargs) -> Node:
    """`build`, but each dispatch that has a route to one of `kernels` runs that kernel
    (benchmarks and route-agreement tests)."""
    return EXECUTOR.build_call(target, *args, force=tuple(kernels), **kwargs)
