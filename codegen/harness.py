"""Runs ops on a real WebGPU adapter from Python, as a drop-in for `torch.ops`.

`call(target, *args, **kwargs)` takes what `torch.ops.<target>(*args, **kwargs)` takes
and returns the same structure, computed by the op's generated shader text (the exact
bytes its `_wgsl.h` embeds) with uniforms packed by the layout engine and routes,
grids and guards evaluated by the spec's expressions (`codegen.plan`), as the C++ does.
`build(...)` returns a `Node` that can be re-run with smaller live shapes (resize).
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass, field
from typing import Any

from codegen import expr as E
from codegen.loader import Catalog, load
from codegen.inputs import SymInt
from codegen.model import (Bool, BoundOp, Copy, Dispatch, Double, DoubleList, Ignored, Int, IntList,
                           Output, OutputList, Outputs, Scalar, Tensor)
from codegen.plan import DispatchPlan, OpError, fail, output_shapes, plan, read_int
from codegen.schema import import_namespace

# How a torch dtype is stored in the graph (the ExecuTorch Vulkan serializer narrows int64).
GRAPH_DTYPE = {"float32": "float32", "float64": "float32", "int64": "int32", "int32": "int32",
               "bool": "bool", "float16": "float16"}


@functools.lru_cache(maxsize=1)
def catalog() -> Catalog:
    return load()


def torch_op(target: str):
    import torch

    ns, name, overload = target.split(".")
    import_namespace(ns)
    return getattr(getattr(getattr(torch.ops, ns), name), overload)


@dataclass
class Value:
    """One graph value, typed as the ExecuTorch graph would hold it."""

    kind: str  # Tensor Null Int Double Bool IntList DoubleList SymInt ValueList
    data: Any = None  # torch tensor (graph dtype), number, list; ValueList: list[Value]
    dtype: str = ""  # graph dtype of a tensor
    dims: tuple[int, ...] = ()


def _graph_tensor(t) -> Value:
    dtype = str(t.dtype).replace("torch.", "")
    gdtype = GRAPH_DTYPE.get(dtype, dtype)
    import torch

    data = t.detach().contiguous().to(getattr(torch, gdtype)) if gdtype != dtype else t.detach().contiguous()
    return Value("Tensor", data, gdtype, tuple(t.shape))


def _value(arg, v: Any) -> Value:
    import torch

    if v is None:
        return Value("Null")
    if isinstance(arg, Tensor):
        if not isinstance(v, torch.Tensor):
            raise TypeError(f"argument {arg.name!r} must be a tensor (got {type(v).__name__})")
        return _graph_tensor(v)
    if isinstance(arg, IntList):
        return Value("IntList", [int(x) for x in (v if isinstance(v, (list, tuple)) else [v])])
    if isinstance(arg, DoubleList):
        return Value("DoubleList", [float(x) for x in v])
    if isinstance(v, SymInt):
        return Value("SymInt", int(v))
    if isinstance(v, bool):
        return Value("Bool", v)
    if isinstance(v, int):
        return Value("Int", v)
    if isinstance(v, float):
        return Value("Double", v)
    return Value("Ignored", v)


@dataclass
class BoundCall:
    """An op call turned into typed graph values (shared by both executors)."""

    target: str
    bound: BoundOp
    values: list[Value]  # one per spec argument; the last is the output (or ValueList)
    multi_output: bool
    torch_out_dtypes: list[Any] = field(default_factory=list)
    absent_outputs: tuple = ()

    @property
    def outputs(self) -> list[Value]:
        last = self.values[-1]
        return list(last.data) if last.kind == "ValueList" else [last]


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


def bind_call(target: str, args: tuple, kwargs: dict, absent_outputs: tuple = ()) -> BoundCall:
    """Maps torch-style arguments onto the spec's arguments and allocates outputs with
    the shapes torch's meta kernels give. `absent_outputs` names optional outputs the
    graph does not request (bound as Null)."""
    import torch

    by_target = catalog().by_target()
    if target not in by_target:
        raise KeyError(f"no spec implements {target!r} (known: {', '.join(sorted(by_target))})")
    bound = by_target[target]
    top = torch_op(target)
    schema_args = top._schema.arguments
    given: list[Any] = []
    for i, sa in enumerate(schema_args):
        if i < len(args):
            given.append(args[i])
        elif sa.name in kwargs:
            given.append(kwargs[sa.name])
        elif sa.has_default_value():
            given.append(sa.default_value)
        else:
            raise TypeError(f"{target}: missing argument {sa.name!r}")
    values = [_value(a, v) for a, v in zip(bound.op.inputs, given)]

    def to_meta(v):
        return v.detach().to("meta") if isinstance(v, torch.Tensor) else v

    last = bound.op.args[-1]
    multi = isinstance(last, (Outputs, OutputList))
    for_torch = torch_args(bound, tuple(given))
    # keyword-only schema arguments must be passed by name
    pos = [v for v, sa in zip(for_torch, schema_args) if not sa.kwarg_only]
    kw = {sa.name: v for v, sa in zip(for_torch, schema_args) if sa.kwarg_only}
    try:
        try:
            result = top(*[to_meta(v) for v in pos], **{k: to_meta(v) for k, v in kw.items()})
        except (NotImplementedError, RuntimeError):
            result = top(*pos, **kw)  # ops without a meta kernel: shapes from a CPU run
        results = list(result) if isinstance(result, (tuple, list)) else [result]
        shapes = [tuple(t.shape) for t in results]
        dtypes = [str(t.dtype).replace("torch.", "") for t in results]
    except (RuntimeError, ValueError, TypeError, IndexError, ArithmeticError):
        # torch rejects these arguments: the spec's guards must reject them too, so
        # give the outputs the spec's formula shape (or none) and let the plan decide
        shapes, dtypes = _formula_shapes(bound, values), [o.dtypes[0] for o in bound.op.outputs]
    outs = [Value("Tensor", None, GRAPH_DTYPE.get(d, d), s) for s, d in zip(shapes, dtypes)]
    for i, o in enumerate(bound.op.outputs if isinstance(last, Outputs) else []):
        if o.name in absent_outputs:
            if not o.optional:
                raise ValueError(f"{target}: output {o.name!r} is not optional")
            outs[i] = Value("Null")
    out_value = Value("ValueList", outs) if multi else outs[0]
    return BoundCall(target, bound, values + [out_value], multi,
                     [getattr(torch, d) for d in dtypes], tuple(absent_outputs))


def _formula_shapes(bound: BoundOp, values: list[Value]) -> list[tuple[int, ...]]:
    if bound.output_list is not None:
        return []  # how many outputs a rejected call has is unknown: give none
    env = {}
    for a, v in zip(bound.op.inputs, values):
        if not isinstance(a, Ignored):
            try:
                env[a.name] = _env_value(bound.op.name, a, v)
            except OpError:
                return [() for _ in bound.op.outputs]
    shapes = []
    for o in bound.op.outputs:
        env[o.name] = E.TensorInfo((), o.dtypes[0])
    try:
        formula = output_shapes(bound, env)
    except OpError:
        formula = {}
    return [tuple(formula.get(o.name, ())) for o in bound.op.outputs]


def planning_env(call: BoundCall) -> dict[str, Any]:
    """The expression environment of a call: what the C++ unpacking reads."""
    env: dict[str, Any] = {}
    op = call.bound.op
    for a, v in zip(op.args, call.values):
        if isinstance(a, Outputs):
            for item, iv in zip(a.items, v.data):
                env[item.name] = E.TensorInfo(iv.dims, iv.dtype) if iv.kind == "Tensor" else E.ABSENT
            continue
        if isinstance(a, OutputList):
            env[a.name] = [E.TensorInfo(iv.dims, iv.dtype) for iv in v.data]
            continue
        if isinstance(a, Ignored):
            continue
        env[a.name] = _env_value(op.name, a, v)
        if getattr(a, "nullable", False):
            env[E.null_key(a.name)] = v.kind == "Null"
    return env


def _env_value(op: str, a, v: Value) -> Any:
    if isinstance(a, Tensor):
        if v.kind == "Null":
            if not a.optional:
                raise fail(op, a.name, "is missing", "None", "a tensor")
            return E.ABSENT
        return E.TensorInfo(v.dims, v.dtype)
    if isinstance(a, (IntList, DoubleList)):
        values = [] if v.kind == "Null" else list(v.data)
        if isinstance(a, IntList) and a.hw:
            if len(values) not in (1, 2):
                raise fail(op, a.name, "must hold one or two values", E.format_value(values),
                           "[h, w] or [v]")
            values = values * 2 if len(values) == 1 else values
        return values
    if v.kind == "Null" and a.nullable:
        return a.fallback
    if isinstance(a, Int):
        return read_int(v.kind, v.data, op, a.name, a.symbolic)
    if v.kind == "Null":
        raise fail(op, a.name, "is missing", "None", f"a value ({a.expr_type()})")
    if isinstance(a, (Scalar, Double)):
        return float(v.data)
    if isinstance(a, Bool):
        return bool(v.data)
    raise AssertionError(a)


# --- the adapter ------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def device():
    """The harness's device: a GPU if present, else a CPU adapter (lavapipe/llvmpipe).
    OPGEN_ADAPTER=cpu|gpu|<name substring> forces a choice. No adapter is an error."""
    import wgpu

    adapters = wgpu.gpu.enumerate_adapters_sync()
    if not adapters:
        raise RuntimeError("no WebGPU adapter found: install a GPU driver or, for a CPU "
                           "adapter, `apt-get install mesa-vulkan-drivers libvulkan1`")
    want = os.environ.get("OPGEN_ADAPTER", "").lower()

    def kind(a) -> str:
        return str(a.info.get("adapter_type", "")).lower()

    if want == "cpu":
        picked = [a for a in adapters if "cpu" in kind(a)]
    elif want == "gpu":
        picked = [a for a in adapters if "gpu" in kind(a)]
    elif want:
        picked = [a for a in adapters if want in str(a.info.get("device", "")).lower()]
    else:
        picked = sorted(adapters, key=lambda a: ("discrete" not in kind(a), "gpu" not in kind(a),
                                                 "vulkan" not in str(a.info.get("backend_type", "")).lower()))
    if not picked:
        names = [f"{a.info.get('device')} ({a.info.get('adapter_type')})" for a in adapters]
        raise RuntimeError(f"OPGEN_ADAPTER={want!r} matches none of: {', '.join(names)}")
    adapter = picked[0]
    limits = {k: adapter.limits[k] for k in ("max-buffer-size", "max-storage-buffer-binding-size",
                                             "max-compute-workgroups-per-dimension")}
    features = [f for f in ("timestamp-query",) if f in adapter.features]
    dev = adapter.request_device_sync(required_limits=limits, required_features=features)
    return adapter, dev


def adapter_line() -> str:
    adapter, _ = device()
    i = adapter.info
    return f"{i.get('device')} ({i.get('backend_type')}, {i.get('adapter_type')})"


@functools.lru_cache(maxsize=None)
def kernel_source(path: str) -> str:
    with open(path) as fh:
        return fh.read()


_PIPELINES: dict[tuple, Any] = {}


def pipeline(kernel, overrides: dict[str, float]):
    key = (kernel.name, kernel.entry, tuple(sorted(overrides.items())))
    if key not in _PIPELINES:
        _, dev = device()
        module = dev.create_shader_module(code=kernel_source(str(kernel.path)), label=kernel.name)
        compute = {"module": module, "entry_point": kernel.entry}
        if overrides:
            compute["constants"] = dict(overrides)
        _PIPELINES[key] = dev.create_compute_pipeline(layout="auto", compute=compute,
                                                      label=kernel.name)
    return _PIPELINES[key]


def _nbytes(dtype: str, dims) -> int:
    import math

    return math.prod(dims) * (2 if dtype == "float16" else 1 if dtype == "bool" else 4)


class Node:
    """One op built on the device: buffers at the build shapes, pipelines compiled.
    `run()` executes; `run(*args)` with smaller tensors (or new SymInt values)
    re-plans for the live shapes without rebuilding, like a resize hook."""

    def __init__(self, call: BoundCall):
        import wgpu

        self.call = call
        self.bound = call.bound
        _, self.dev = device()
        self.max_per_dim = self.dev.limits["max-compute-workgroups-per-dimension"]
        env = planning_env(call)
        self.plans = plan(self.bound, env, self.max_per_dim)
        self.buffers: dict[int, Any] = {}  # id(Value) -> GPUBuffer
        usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
        for v in self._tensor_values():
            size = max(4, -(-_nbytes(v.dtype, v.dims) // 4) * 4)
            self.buffers[id(v)] = self.dev.create_buffer(size=size, usage=usage)
        self._write_inputs(call)

    def _tensor_values(self) -> list[Value]:
        out = [v for v in self.call.values[:-1] if v.kind == "Tensor"]
        return out + [v for v in self.call.outputs if v.kind == "Tensor"]

    def _write_inputs(self, call: BoundCall) -> None:
        for v in call.values[:-1]:
            if v.kind == "Tensor":
                data = v.data.numpy().tobytes() if v.dtype != "bool" else v.data.to(
                    __import__("torch").uint8).numpy().tobytes()
                if data:
                    self.dev.queue.write_buffer(self.buffers[id(v)], 0, data)

    @property
    def routes(self) -> list[str]:
        """The kernel each compute dispatch ran (what the cases assert)."""
        return [p.kernel.name for p in self.plans if p.kernel is not None and p.run]

    def run(self, *args, **kwargs):
        if args or kwargs:
            self._resize(bind_call(self.call.target, args, kwargs, self.call.absent_outputs))
        self._execute()
        return self._read_outputs()

    def _resize(self, live: BoundCall) -> None:
        op = self.bound.op
        for name_val, (old, new) in enumerate(zip(self.call.values[:-1], live.values[:-1])):
            if old.kind == "Tensor":
                if op.resize == "static" and new.dims != old.dims:
                    name = op.inputs[name_val].name
                    raise fail(op.name, name, "was resized, but this op supports static shapes only",
                               E.format_value(list(new.dims)), E.format_value(list(old.dims)))
                if _nbytes(new.dtype, new.dims) > _nbytes(old.dtype, old.max_dims
                                                          if hasattr(old, "max_dims") else old.dims):
                    raise ValueError(f"live shape {list(new.dims)} exceeds the built shape")
                new.data = new.data.contiguous()
                self.buffers[id(new)] = self.buffers.pop(id(old))
        env = planning_env(live)
        # the outputs keep their buffers and take the formula's shape, as the C++ hook does
        shapes = output_shapes(self.bound, env)
        for old, new in zip(self.call.outputs, live.outputs):
            if old.kind == "Tensor":
                self.buffers[id(new)] = self.buffers.pop(id(old))
        if self.bound.output_list is not None:
            ol = self.bound.output_list
            for v, dims in zip(live.outputs, shapes[ol.item.name]):
                v.dims = tuple(dims)
            env[ol.name] = [E.TensorInfo(v.dims, v.dtype) for v in live.outputs]
        names = [o.name for o in op.outputs]
        for name, v in zip(names, live.outputs if self.bound.output_list is None else []):
            if v.kind == "Tensor" and name in shapes:
                v.dims = tuple(shapes[name])
                env[name] = E.TensorInfo(v.dims, v.dtype)
        plans = plan(self.bound, env, self.max_per_dim)
        for old, new in zip(self.plans, plans):
            if old.run != new.run or old.route != new.route:
                raise fail(op.name, "inputs", "were resized into a different kernel route",
                           new.kernel.name if new.kernel else "copy",
                           old.kernel.name if old.kernel else "copy")
        self.call, self.plans = live, plans
        self._write_inputs(live)

    def _buffer_of(self, name: str, item: int = -1):
        op = self.bound.op
        for a, v in zip(op.args, self.call.values):
            if isinstance(a, OutputList) and a.item.name == name:
                return self.buffers.get(id(v.data[item]))
            if isinstance(a, Outputs):
                for item, iv in zip(a.items, v.data):
                    if item.name == name:
                        return self.buffers.get(id(iv))
            elif a.name == name:
                return self.buffers.get(id(v))
        raise KeyError(name)

    def _execute(self) -> None:
        import wgpu

        dev = self.dev
        encoder = dev.create_command_encoder()
        keep = []
        for p in self.plans:
            d = self.bound.dispatches[p.index]
            if not p.run:
                continue
            if p.kernel is None:
                src, dst = self._buffer_of(d.spec.src), self._buffer_of(d.spec.dst)
                if src is not dst and p.nbytes:
                    encoder.copy_buffer_to_buffer(src, 0, dst, 0, -(-p.nbytes // 4) * 4)
                continue
            pipe = pipeline(p.kernel, p.overrides)
            entries = []
            slot = 0
            if d.layout:
                data = d.layout.pack(p.params)
                ubuf = dev.create_buffer_with_data(data=data, usage=wgpu.BufferUsage.UNIFORM)
                keep.append(ubuf)
                entries.append({"binding": 0, "resource": {"buffer": ubuf, "offset": 0,
                                                           "size": ubuf.size}})
                slot = 1
            for i, b in enumerate(d.spec.bindings):
                buf = self._buffer_of(b.arg, p.item)
                if buf is None:  # an absent optional tensor: a dummy of one element
                    buf = dev.create_buffer(size=16, usage=wgpu.BufferUsage.STORAGE)
                    keep.append(buf)
                entries.append({"binding": slot + i, "resource": {"buffer": buf, "offset": 0,
                                                                  "size": buf.size}})
            group = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=entries)
            cpass = encoder.begin_compute_pass()
            cpass.set_pipeline(pipe)
            cpass.set_bind_group(0, group)
            cpass.dispatch_workgroups(*p.grid)
            cpass.end()
        dev.queue.submit([encoder.finish()])

    def _read_outputs(self):
        import numpy as np
        import torch

        results = []
        written = self._written_outputs()
        for i, (v, tdtype) in enumerate(zip(self.call.outputs, self.call.torch_out_dtypes)):
            if v.kind != "Tensor" or i not in written:
                results.append(None)
                continue
            n = _nbytes(v.dtype, v.dims)
            raw = bytes(self.dev.queue.read_buffer(self.buffers[id(v)], 0, max(4, -(-n // 4) * 4)))[:n]
            np_dtype = {"float32": np.float32, "int32": np.int32, "float16": np.float16,
                        "bool": np.uint8}[v.dtype]
            t = torch.from_numpy(np.frombuffer(raw, dtype=np_dtype).copy()).reshape(v.dims)
            results.append(t.to(tdtype))
        return tuple(results) if self.call.multi_output else results[0]


    def _written_outputs(self) -> set[int]:
        """Positions of the outputs some dispatch or copy writes (an output the op never
        writes, e.g. batch norm's save_mean in inference, reads back as None)."""
        if self.bound.output_list is not None:
            return set(range(len(self.call.outputs)))
        names = set()
        for d in self.bound.dispatches:
            if isinstance(d.spec, Copy):
                names.add(d.spec.dst)
            elif isinstance(d.spec, Dispatch):
                names.update(b.arg for b in d.spec.bindings if b.write)
        return {i for i, o in enumerate(self.bound.op.outputs) if o.name in names}


def build(target: str, *args, absent_outputs: tuple = (), **kwargs) -> Node:
    """Builds the op; `absent_outputs` names optional outputs the graph leaves Null."""
    return Node(bind_call(target, args, kwargs, absent_outputs))


def call(target: str, *args, **kwargs):
    """`torch.ops.<target>(*args, **kwargs)`, computed on the WebGPU adapter."""
    return build(target, *args, **kwargs).run()


__all__ = ["call", "build", "Node", "OpError", "SymInt", "bind_call", "adapter_line", "DispatchPlan"]
