"""The one interface every executor implements, and what they share.

An executor builds a `BoundCall` (`codegen.executors.call`) into a `Built` op: buffers
at the build shapes, pipelines compiled. `Built.run()` executes it; `Built.run(live)`
with a rebound call of smaller (or equal) shapes re-plans without rebuilding, as a
resize hook does, and executes. `routes` names the kernels the last run dispatched.
`Executor.call(target, *args, **kwargs)` is the drop-in for `torch.ops.<target>`.
`Executor.without(features)` is the same executor on a device created without those
WebGPU features, so routes that need them give way to their fallbacks (the tests run
both sides of every feature route this way).
"""

from __future__ import annotations

import copy
from typing import Any, Protocol

from codegen.executors.call import BoundCall, bind_call, written_outputs
from codegen.graph.dtypes import dtype
from codegen.language.features import FEATURES


class Built(Protocol):
    routes: list[str]

    def run(self, live: BoundCall | None = None) -> Any: ...


class Executor:
    """Subclasses set `name` and implement `build` and `features`."""

    name = ""
    masked: frozenset[str] = frozenset()  # features the device is created without

    def without(self, features) -> "Executor":
        """This executor on a device that lacks `features` (WebGPU names) even where the
        adapter offers them."""
        unknown = sorted(set(features) - set(FEATURES))
        if unknown:
            raise ValueError(f"unknown WebGPU features {', '.join(unknown)} (known: "
                             f"{', '.join(FEATURES)})")
        masked = copy.copy(self)
        masked.masked = self.masked | frozenset(features)
        return masked

    def features(self) -> frozenset[str]:
        """The optional WebGPU features (codegen.language.features) of this executor's device,
        masked ones left out."""
        raise NotImplementedError

    def build(self, call: BoundCall, force: tuple[str, ...] = ()) -> Built:
        """`force` names kernels to run instead of the routes' choice (benchmarks and
        route-agreement tests); an executor that cannot force routes raises."""
        raise NotImplementedError

    def build_call(self, target: str, *args, absent_outputs: tuple = (),
                   force: tuple[str, ...] = (), **kwargs) -> Built:
        """Binds torch-style arguments and builds; `absent_outputs` names optional
        outputs the graph leaves Null."""
        return self.build(bind_call(target, args, kwargs, absent_outputs), tuple(force))

    def call(self, target: str, *args, **kwargs) -> Any:
        """`torch.ops.<target>(*args, **kwargs)`, computed by this executor."""
        return self.build_call(target, *args, **kwargs).run()


def tensor_from_bytes(raw: bytes, graph_dtype: str, dims, torch_dtype=None):
    """A graph buffer's bytes as a torch tensor of `dims` (extra trailing bytes, e.g. the
    16-byte rounding of a GPU buffer, are dropped), converted to `torch_dtype`."""
    import numpy as np
    import torch

    d = dtype(graph_dtype)
    n = d.size
    for x in dims:
        n *= x
    t = torch.from_numpy(np.frombuffer(raw[:n], dtype=d.numpy).copy()).reshape(tuple(dims))
    return t if torch_dtype is None else t.to(torch_dtype)


def tensor_bytes(data, graph_dtype: str) -> bytes:
    """A graph tensor's bytes as a buffer holds them (bool as one byte per element)."""
    import torch

    if graph_dtype == "bool":
        data = data.to(torch.uint8)
    return data.contiguous().numpy().tobytes()


def results(call: BoundCall, read) -> Any:
    """The call's outputs in torch's structure: `read(position, value)` gives the tensor
    of a written output (or None); an absent or never-written output is None. An op
    returning a SymInt gives its value (an int)."""
    if call.bound.op.symint_output is not None:
        return int(call.values[-1].data)
    written = written_outputs(call.bound, len(call.outputs))
    out = []
    for i, (v, tdtype) in enumerate(zip(call.outputs, call.torch_out_dtypes)):
        t = read(i, v) if v.kind == "Tensor" and i in written else None
        out.append(None if t is None else t.to(tdtype))
    return tuple(out) if call.multi_output else out[0]


def write_back(call: BoundCall, read) -> None:
    """Copies the new contents of mutable inputs into the caller's tensors, as torch's
    in-place ops do; `read(index, value)` gives input `index`'s tensor after the run."""
    import torch

    for i in call.mutable_inputs():
        v = call.values[i]
        if v.kind == "Tensor" and v.source is not None:
            with torch.no_grad():
                v.source.copy_(read(i, v).to(v.source.dtype))
