"""Runs ops on a real WebGPU adapter from Python, as a drop-in for `torch.ops`.

`call(target, *args, **kwargs)` takes what `torch.ops.<target>(*args, **kwargs)` takes
and returns the same structure, computed by the op's generated shader text (the exact
bytes its `_wgsl.h` embeds) with uniforms packed by the layout engine and routes,
grids and guards evaluated by the spec's expressions (`codegen.lower.plan`), as the C++ does.
`build(...)` returns a `Node` that can be re-run with smaller live shapes (resize).
"""

from __future__ import annotations

import functools
import math
import os
import struct
from dataclasses import dataclass, field
from typing import Any

from codegen.spec import expr as E
from codegen.spec.loader import REPO_ROOT, Catalog, load
from codegen.spec.inputs import SymInt
from codegen.spec.model import (Bool, BoundOp, Copy, Dispatch, Double, DoubleList, Ignored, Int, IntList,
                           Output, OutputList, Outputs, Scalar, Tensor, TensorList)
from codegen.spec.model import SpecError
from codegen.lower.plan import (DispatchPlan, OpError, elementwise_grid, fail, output_shapes, plan,
                          read_int)
from codegen.spec.schema import import_namespace

# How a torch dtype is stored in the graph (the ExecuTorch Vulkan serializer narrows int64).
GRAPH_DTYPE = {"float32": "float32", "float64": "float32", "int64": "int32", "int32": "int32",
               "bool": "bool", "float16": "float16", "uint8": "uint8"}


@functools.lru_cache(maxsize=1)
def catalog() -> Catalog:
    return load()


def torch_op(target: str):
    import torch

    ns, name, overload = target.split(".")
    import_namespace(ns, [target])
    return getattr(getattr(getattr(torch.ops, ns), name), overload)


@dataclass
class Value:
    """One graph value, typed as the ExecuTorch graph would hold it."""

    kind: str  # Tensor Null Int Double Bool IntList DoubleList SymInt ValueList
    data: Any = None  # torch tensor (graph dtype), number, list; ValueList: list[Value]
    dtype: str = ""  # graph dtype of a tensor
    dims: tuple[int, ...] = ()
    source: Any = None  # the caller's tensor (a mutable input is written back into it)


def _graph_tensor(t) -> Value:
    dtype = str(t.dtype).replace("torch.", "")
    gdtype = GRAPH_DTYPE.get(dtype, dtype)
    import torch

    data = t.detach().contiguous().to(getattr(torch, gdtype)) if gdtype != dtype else t.detach().contiguous()
    return Value("Tensor", data, gdtype, tuple(t.shape), source=t)


def _value(arg, v: Any) -> Value:
    import torch

    if v is None:
        return Value("Null")
    if isinstance(arg, TensorList):
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"argument {arg.name!r} must be a list of tensors (got {type(v).__name__})")
        return Value("ValueList", [Value("Null") if t is None else _graph_tensor(t) for t in v])
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


@dataclass
class _SchemaArg:
    name: str
    kwarg_only: bool
    has_default: bool
    default: Any


def _cached_schema_args(target: str) -> list[_SchemaArg]:
    from codegen.spec.schema import cached_schema, schema_default

    schema = cached_schema(target, REPO_ROOT / "generated" / "torch_schemas.json")
    text = schema["schema"]
    star = text.find("*,")
    out = []
    for name, stype, *default in schema["args"]:
        kwarg_only = star >= 0 and text.find(f" {name}") > star
        out.append(_SchemaArg(name, kwarg_only, bool(default),
                              schema_default(default[0], stype) if default else None))
    return out


def bind_call(target: str, args: tuple, kwargs: dict, absent_outputs: tuple = ()) -> BoundCall:
    """Maps torch-style arguments onto the spec's arguments and allocates outputs with
    the shapes torch's meta kernels give. `absent_outputs` names optional outputs the
    graph does not request (bound as Null)."""
    import torch

    by_target = catalog().by_target()
    if target not in by_target:
        raise KeyError(f"no spec implements {target!r} (known: {', '.join(sorted(by_target))})")
    bound = by_target[target]
    try:
        top = torch_op(target)
        schema_args = [_SchemaArg(a.name, a.kwarg_only, a.has_default_value(),
                                  a.default_value if a.has_default_value() else None)
                       for a in top._schema.arguments]
    except SpecError:  # the op's library is not installed here: its cached schema, no meta
        top = None
        schema_args = _cached_schema_args(target)
    given: list[Any] = []
    for i, sa in enumerate(schema_args):
        if i < len(args):
            given.append(args[i])
        elif sa.name in kwargs:
            given.append(kwargs[sa.name])
        elif sa.has_default:
            given.append(sa.default)
        else:
            raise TypeError(f"{target}: missing argument {sa.name!r}")
    values = [_value(a, v) for a, v in zip(bound.op.inputs, given)]

    def to_meta(v):
        if isinstance(v, (list, tuple)):
            return type(v)(to_meta(x) for x in v)
        return v.detach().to("meta") if isinstance(v, torch.Tensor) else v

    last = bound.op.args[-1]
    multi = isinstance(last, (Outputs, OutputList))
    for_torch = torch_args(bound, tuple(given))
    # keyword-only schema arguments must be passed by name
    pos = [v for v, sa in zip(for_torch, schema_args) if not sa.kwarg_only]
    kw = {sa.name: v for v, sa in zip(for_torch, schema_args) if sa.kwarg_only}
    try:
        if top is None:
            raise LookupError(f"{target}: no torch op to take output shapes from")
        try:
            result = top(*[to_meta(v) for v in pos], **{k: to_meta(v) for k, v in kw.items()})
        except (NotImplementedError, RuntimeError):
            result = top(*pos, **kw)  # ops without a meta kernel: shapes from a CPU run
        results = list(result) if isinstance(result, (tuple, list)) else [result]
        shapes = [tuple(t.shape) for t in results]
        dtypes = [str(t.dtype).replace("torch.", "") for t in results]
    except (RuntimeError, ValueError, TypeError, IndexError, AssertionError, ArithmeticError,
            LookupError):
        # torch rejects these arguments (Python meta kernels check with assert), or torch
        # does not know the op here: give the outputs the spec's formula shape (or none)
        # and let the plan decide (the spec's guards must reject what torch rejects)
        shapes, dtypes = _formula_shapes(bound, values), _fallback_dtypes(bound, values)
    outs = [Value("Tensor", None, GRAPH_DTYPE.get(d, d), s) for s, d in zip(shapes, dtypes)]
    for i, o in enumerate(bound.op.outputs if isinstance(last, Outputs) else []):
        if o.name in absent_outputs:
            if not o.optional:
                raise ValueError(f"{target}: output {o.name!r} is not optional")
            outs[i] = Value("Null")
    out_value = Value("ValueList", outs) if multi else outs[0]
    return BoundCall(target, bound, values + [out_value], multi,
                     [getattr(torch, d) for d in dtypes], tuple(absent_outputs))


def _fallback_dtypes(bound: BoundOp, values: list[Value]) -> list[str]:
    """Output dtypes without torch: a `dtype` argument's when one is given (conversions),
    else the first input tensor's when the output allows it (copies, elementwise ops),
    else the output's first declared dtype."""
    import torch

    first = next((v.dtype for v in values if v.kind == "Tensor"), None)
    for a, v in zip(bound.op.inputs, values):
        if a.name == "dtype" and isinstance(v.data, torch.dtype):
            first = GRAPH_DTYPE.get(str(v.data).replace("torch.", ""), first)
    return [first if first in o.dtypes else o.dtypes[0] for o in bound.op.outputs]


def _formula_shapes(bound: BoundOp, values: list[Value]) -> list[tuple[int, ...]]:
    if bound.output_list is not None:
        return []  # how many outputs a rejected call has is unknown: give none
    env = {}
    for a, v in zip(bound.op.inputs, values):
        if not isinstance(a, Ignored):
            try:
                env[a.name] = _env_value(bound, a, v, env)
                if getattr(a, "nullable", False):
                    env[E.null_key(a.name)] = v.kind == "Null"
            except (OpError, E.EvalError, KeyError, AttributeError):
                return [() for _ in bound.op.outputs]
    shapes = []
    for o in bound.op.outputs:
        env[o.name] = E.TensorInfo((), o.dtypes[0])
    try:
        formula = output_shapes(bound, env)
    except OpError:
        formula = {}
    # a formula that yields a negative dim (e.g. an unresolved -1) names no real tensor
    return [tuple(d) if all(x >= 0 for x in d) else () for d in
            (formula.get(o.name, ()) for o in bound.op.outputs)]


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
        env[a.name] = _env_value(call.bound, a, v, env)
        if getattr(a, "nullable", False):
            env[E.null_key(a.name)] = v.kind == "Null"
    return env


def _env_value(bound: BoundOp, a, v: Value, env: dict) -> Any:
    op = bound.op.name
    if isinstance(a, TensorList):
        return [E.ABSENT if iv.kind == "Null" else E.TensorInfo(iv.dims, iv.dtype) for iv in v.data]
    if v.kind == "Null" and a.name in bound.defaults:  # a nullable scalar: its default
        try:
            value = bound.defaults[a.name].evaluate(env)
        except E.EvalError as err:
            raise OpError(str(err)) from None
        return float(value) if isinstance(a, Double) else value
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


def pipeline(kernel, overrides: dict[str, float], dispatch):
    """The compute pipeline of `kernel` with explicit layouts from the spec's bindings (so a
    binding the kernel body does not read still binds), cached like the runtime's."""
    import wgpu

    key = (kernel.name, kernel.entry, tuple(sorted(overrides.items())))
    if key not in _PIPELINES:
        _, dev = device()
        entries = []
        if dispatch.layout:
            entries.append({"binding": 0, "visibility": wgpu.ShaderStage.COMPUTE,
                            "buffer": {"type": wgpu.BufferBindingType.uniform}})
        for i, b in enumerate(dispatch.spec.bindings):
            kind = wgpu.BufferBindingType.storage if b.write else \
                wgpu.BufferBindingType.read_only_storage
            entries.append({"binding": len(entries), "visibility": wgpu.ShaderStage.COMPUTE,
                            "buffer": {"type": kind}})
        group_layout = dev.create_bind_group_layout(entries=entries)
        module = dev.create_shader_module(code=kernel_source(str(kernel.path)), label=kernel.name)
        compute = {"module": module, "entry_point": kernel.entry}
        if overrides:
            compute["constants"] = dict(overrides)
        layout = dev.create_pipeline_layout(bind_group_layouts=[group_layout])
        _PIPELINES[key] = (dev.create_compute_pipeline(layout=layout, compute=compute,
                                                       label=kernel.name), group_layout)
    return _PIPELINES[key]


# The C++ runtime's flat-copy kernel, which both runtimes run for a Copy(...) step, and its
# WORKGROUP_SIZE and VEC4_PER_INVOCATION (graph.cpp has them too; the copy case
# `several_workgroups` fails if a grid covers less than the kernel).
COPY_KERNEL = "cpp_runtime/src/copy_words.wgsl"
COPY_WORKGROUP_SIZE = 256
COPY_VEC4_PER_INVOCATION = 4


def _copy_pipeline():
    if COPY_KERNEL not in _PIPELINES:
        _, dev = device()
        module = dev.create_shader_module(code=kernel_source(str(REPO_ROOT / COPY_KERNEL)),
                                          label="copy_words")
        _PIPELINES[COPY_KERNEL] = dev.create_compute_pipeline(
            layout="auto", compute={"module": module, "entry_point": "main"}, label="copy_words")
    return _PIPELINES[COPY_KERNEL]


def buffer_size(nbytes: int) -> int:
    """Whole 16-byte units, as the runtime allocates: any tensor may be read as vec4s."""
    return max(16, -(-nbytes // 16) * 16)


def _nbytes(dtype: str, dims) -> int:
    import math

    return math.prod(dims) * (2 if dtype == "float16" else 1 if dtype == "bool" else 4)


class Node:
    """One op built on the device: buffers at the build shapes, pipelines compiled.
    `run()` executes; `run(*args)` with smaller tensors (or new SymInt values)
    re-plans for the live shapes without rebuilding, like a resize hook."""

    def __init__(self, call: BoundCall, force: tuple[str, ...] = ()):
        import wgpu

        self.call = call
        self.bound = call.bound
        self.force = tuple(force)
        _, self.dev = device()
        self.max_per_dim = self.dev.limits["max-compute-workgroups-per-dimension"]
        env = planning_env(call)
        self.plans = plan(self.bound, env, self.max_per_dim, self.force)
        self.buffers: dict[int, Any] = {}  # id(Value) -> GPUBuffer
        usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
        for v in self._tensor_values():
            size = buffer_size(_nbytes(v.dtype, v.dims))
            self.buffers[id(v)] = self.dev.create_buffer(size=size, usage=usage)
        # scratch tensors: allocated at the build shape, like graph.add_tensor in the C++
        self.scratch = {}
        self.built_scratch = dict(self.plans.scratch)  # the allocated extents
        for s in self.bound.op.scratch:
            size = buffer_size(_nbytes(s.dtype, self.plans.scratch[s.name]))
            self.scratch[s.name] = self.dev.create_buffer(size=size, usage=usage)
        self._write_inputs(call)

    def _input_tensors(self, call: BoundCall) -> list[Value]:
        """Every input tensor value, tensor-list entries included, in argument order."""
        out = []
        for v in call.values[:-1]:
            if v.kind == "Tensor":
                out.append(v)
            elif v.kind == "ValueList":
                out.extend(iv for iv in v.data if iv.kind == "Tensor")
        return out

    def _tensor_values(self) -> list[Value]:
        return self._input_tensors(self.call) + [v for v in self.call.outputs if v.kind == "Tensor"]

    def _write_inputs(self, call: BoundCall) -> None:
        for v in self._input_tensors(call):
            data = v.data.numpy().tobytes() if v.dtype != "bool" else v.data.to(
                __import__("torch").uint8).numpy().tobytes()
            data += bytes(-len(data) % 4)  # queue writes need whole 4-byte words
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
        self._write_back()
        return self._read_outputs()

    def _resize_tensor(self, name: str, old: Value, new: Value) -> None:
        op = self.bound.op
        if old.kind != new.kind:
            raise fail(op.name, name, "changed kind after the build", new.kind, old.kind)
        if op.resize == "static" and new.dims != old.dims:
            raise fail(op.name, name, "was resized, but this op supports static shapes only",
                       E.format_value(list(new.dims)), E.format_value(list(old.dims)))
        if _nbytes(new.dtype, new.dims) > self.buffers[id(old)].size:  # the build's allocation
            raise ValueError(f"live shape {list(new.dims)} of {name!r} exceeds the built shape")
        new.data = new.data.contiguous()
        self.buffers[id(new)] = self.buffers.pop(id(old))

    def _resize(self, live: BoundCall) -> None:
        op = self.bound.op
        for a, old, new in zip(op.inputs, self.call.values[:-1], live.values[:-1]):
            if old.kind == "Tensor":
                self._resize_tensor(a.name, old, new)
            elif old.kind == "ValueList":
                if len(old.data) != len(new.data):
                    raise fail(op.name, a.name, "changed length after the build",
                               str(len(new.data)), str(len(old.data)))
                for oi, ni in zip(old.data, new.data):
                    if oi.kind == "Tensor" or ni.kind == "Tensor":
                        self._resize_tensor(a.name, oi, ni)
            elif old.kind != "SymInt" and (old.kind, old.data) != (new.kind, new.data) and \
                    not isinstance(a, Ignored):
                # only a SymInt may change without a rebuild (the graph holds the rest as constants)
                raise fail(op.name, a.name, "is a build-time value and cannot change without a rebuild",
                           E.format_value(new.data), E.format_value(old.data))
            elif old.kind == "SymInt" and new.kind not in ("SymInt", "Int"):
                raise fail(op.name, a.name, "must stay an int (it is a SymInt)", new.kind, "SymInt")
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
        plans = plan(self.bound, env, self.max_per_dim, self.force)
        for s in op.scratch:
            dims, built = plans.scratch[s.name], self.built_scratch[s.name]
            if _nbytes(s.dtype, dims) > _nbytes(s.dtype, built) or len(dims) != len(built):
                raise fail(op.name, s.name, "cannot take the resized shape within its allocation",
                           E.format_value(dims), "at most " + E.format_value(built))
        for old, new in zip(self.plans, plans):
            if old.run != new.run or old.route != new.route:
                raise fail(op.name, "inputs", "were resized into a different kernel route",
                           new.kernel.name if new.kernel else "copy",
                           old.kernel.name if old.kernel else "copy")
        self.call, self.plans = live, plans
        self._write_inputs(live)

    def _buffer_of(self, name: str, item: int = -1):
        op = self.bound.op
        if name in self.scratch:
            return self.scratch[name]
        for a, v in zip(op.args, self.call.values):
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

    def _write_back(self) -> None:
        """Copies the new contents of mutable inputs into the caller's tensors, as torch's
        in-place ops do."""
        import numpy as np
        import torch

        for a, v in zip(self.bound.op.inputs, self.call.values[:-1]):
            if isinstance(a, Tensor) and a.mutable and v.kind == "Tensor" and v.source is not None:
                n = _nbytes(v.dtype, v.dims)
                raw = bytes(self.dev.queue.read_buffer(self.buffers[id(v)], 0, max(4, -(-n // 4) * 4)))[:n]
                t = torch.from_numpy(np.frombuffer(raw, dtype=_NP_DTYPES[v.dtype]).copy())
                with torch.no_grad():
                    v.source.copy_(t.reshape(v.dims).to(v.source.dtype))

    def _execute(self) -> None:
        encoder = self.dev.create_command_encoder()
        keep: list = []
        self.encode_all(encoder, keep)
        self.dev.queue.submit([encoder.finish()])

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

        dev = self.dev
        p = self.plans[index]
        d = self.bound.dispatches[p.index]
        if not p.run:
            return
        if p.kernel is None:
            src, dst = self._buffer_of(d.spec.src), self._buffer_of(d.spec.dst)
            nbytes = p.nbytes if src is not dst else 0
            if nbytes or timestamp_writes:
                self._encode_flat_copy(encoder, src, dst, nbytes, keep, timestamp_writes)
            return
        pipe, group_layout = pipeline(p.kernel, p.overrides, d)
        entries = []
        if d.layout:
            ubuf = dev.create_buffer_with_data(data=d.layout.pack(p.params),
                                               usage=wgpu.BufferUsage.UNIFORM)
            keep.append(ubuf)
            entries.append({"binding": 0, "resource": {"buffer": ubuf}})
        per_output = d.foreach.item.name if d.foreach is not None else None
        for b in d.spec.bindings:
            # a tensor-list entry (Bind.item), or the output of a per-output dispatch
            buf = self._buffer_of(b.arg, p.item if b.arg == per_output else b.item)
            if buf is None:  # an absent optional tensor: a dummy of one element
                buf = dev.create_buffer(size=16, usage=wgpu.BufferUsage.STORAGE)
                keep.append(buf)
            entries.append({"binding": len(entries), "resource": {"buffer": buf}})
        group = dev.create_bind_group(layout=group_layout, entries=entries)
        cpass = encoder.begin_compute_pass(**({"timestamp_writes": timestamp_writes}
                                              if timestamp_writes else {}))
        cpass.set_pipeline(pipe)
        cpass.set_bind_group(0, group)
        cpass.dispatch_workgroups(*p.grid)
        cpass.end()

    def _encode_flat_copy(self, encoder, src, dst, nbytes: int, keep: list,
                          timestamp_writes=None) -> None:
        """A Copy step, run as the C++ runtime runs it: the runtime's copy_words kernel
        (a compute pass, so it can also carry timestamps when there is nothing to copy)."""
        import wgpu

        pipe = _copy_pipeline()
        num_vec4 = -(-nbytes // 16)
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

    def _read_outputs(self):
        import numpy as np
        import torch

        results = []
        written = written_outputs(self.bound, len(self.call.outputs))
        for i, (v, tdtype) in enumerate(zip(self.call.outputs, self.call.torch_out_dtypes)):
            if v.kind != "Tensor" or i not in written:
                results.append(None)
                continue
            n = _nbytes(v.dtype, v.dims)
            raw = bytes(self.dev.queue.read_buffer(self.buffers[id(v)], 0, max(4, -(-n // 4) * 4)))[:n]
            np_dtype = _NP_DTYPES[v.dtype]
            t = torch.from_numpy(np.frombuffer(raw, dtype=np_dtype).copy()).reshape(v.dims)
            results.append(t.to(tdtype))
        return tuple(results) if self.call.multi_output else results[0]


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


_NP_DTYPES = {"float32": "float32", "int32": "int32", "float16": "float16", "bool": "uint8",
              "uint8": "uint8"}


def build(target: str, *args, absent_outputs: tuple = (), **kwargs) -> Node:
    """Builds the op; `absent_outputs` names optional outputs the graph leaves Null."""
    return Node(bind_call(target, args, kwargs, absent_outputs))


def build_forced(target: str, kernels: tuple[str, ...], *args, **kwargs) -> Node:
    """`build`, but each dispatch that has a route to one of `kernels` runs that kernel
    (benchmarks and route-agreement tests)."""
    return Node(bind_call(target, args, kwargs), force=tuple(kernels))


def call(target: str, *args, **kwargs):
    """`torch.ops.<target>(*args, **kwargs)`, computed on the WebGPU adapter."""
    return build(target, *args, **kwargs).run()


__all__ = ["call", "build", "Node", "OpError", "SymInt", "bind_call", "adapter_line", "DispatchPlan"]
