"""The planned-steps browser executor: every dispatch of an op, planned in Python, run by
Chromium's WebGPU (Dawn + Tint). The spec cases run in the browser through the
WebAssembly build of the generated C++ instead (`codegen.executors.browser`); this one
stays for what that cannot do: `opgen bench --browser` times one kernel at a time, on a
route the bench forces (the C++ picks its own), with the page's timestamp queries around
the exact shader text, and its device layer (browser_device) compiles every kernel with
Tint for `opgen check --shaders`, including kernels no case reaches.

It plans exactly as the wgpu harness does (`PlannedNode`: the op's lowering interpreted,
the same resize rule) and hands the browser page one request per run: the exact shader
text of each kernel the plan uses, its bind group layout from the spec's bindings, the
packed Params bytes, the buffers (inputs with their data) and the steps in order.
Buffers live only for one request, so each run uploads the inputs again; outputs and
mutable inputs come back as bytes. See `codegen.executors.browser_device` for the page.
"""

from __future__ import annotations

from codegen.executors.browser_device import device
from codegen.executors.call import BoundCall
from codegen.executors.interface import Executor, results, tensor_bytes, tensor_from_bytes, \
    write_back
from codegen.executors.planned import PlannedNode
from codegen.executors.wgpu_device import kernel_source
from codegen.language.features import FEATURES
from codegen.lower.wgsl_module import storage_dummy_bytes
from codegen.paths import kernel_module


def kernel_entry(kernel, overrides: dict[str, float], dispatch) -> dict:
    """A kernel as the page compiles it: its text, entry point, overrides and the bind
    group layout the spec's bindings give (params first when present)."""
    layout = ["uniform"] if dispatch.layout else []
    layout += ["storage" if b.write else "read-only-storage" for b in dispatch.spec.bindings]
    name = kernel.name
    if overrides:  # one entry per (kernel, overrides): the page keys kernels by name
        name += "(" + ",".join(f"{k}={v:g}" for k, v in sorted(overrides.items())) + ")"
    return {"name": name, "code": kernel_source(str(kernel_module(kernel))), "entry": kernel.entry,
            "overrides": dict(overrides), "layout": layout}


def page_features(info: dict) -> frozenset[str]:
    """The optional WebGPU features of the page's device (adapterInfo's)."""
    return frozenset(f for f in info["features"] if f in FEATURES)


class PlannedBrowserNode(PlannedNode):
    """One op planned for the browser; buffers are ids in the page's request."""

    def __init__(self, call: BoundCall, force: tuple[str, ...] = (),
                 masked: frozenset[str] = frozenset()):
        self.dev, self.masked = device(), masked
        info = self.dev.adapter_info(masked)
        self._sizes: list[int] = []
        super().__init__(call, force, info["limits"]["maxComputeWorkgroupsPerDimension"],
                         page_features(info))
        self.run_ms: list[float] = []

    def allocate(self, size: int) -> int:
        self._sizes.append(size)
        return len(self._sizes) - 1

    def request(self) -> dict:
        """The run as the page takes it (see runner.js run())."""
        data = {self.buffers[id(v)]: tensor_bytes(v.data, v.dtype)
                for v in self.call.input_tensors()}
        kernels: dict[str, dict] = {}
        steps = []
        for p in self.plans:
            if not p.run:
                continue
            d = self.bound.dispatches[p.index]
            if p.kernel is None:
                src, dst = self.buffer_of(d.spec.src), self.buffer_of(d.spec.dst)
                if src != dst and p.nbytes:  # an aliased output already holds the bytes
                    steps.append({"kind": "copy", "src": src, "dst": dst, "nbytes": p.nbytes})
                continue
            entry = kernel_entry(p.kernel, p.overrides, d)
            kernels[entry["name"]] = entry
            bindings = [self.buffer_of(b.arg, d.item_of(b, p.item)) for b in d.spec.bindings]
            steps.append({"kind": "dispatch", "kernel": entry["name"],
                          "params": d.layout.pack(p.params) if d.layout else None,
                          "bindings": bindings,
                          "dummy_bytes": storage_dummy_bytes(self.bound, d, p.kernel),
                          "grid": list(p.grid)})
        read = sorted({self.buffers[id(v)] for v in self.tensor_values()})
        return {"kernels": list(kernels.values()), "masked": sorted(self.masked),
                "buffers": [{"id": i, "size": size, "data": data.get(i)}
                            for i, size in enumerate(self._sizes)],
                "steps": steps, "read": read}

    def run(self, live: BoundCall | None = None):
        if live is not None:
            self.resize(live)
        out = self.dev.run(self.request())
        self.run_ms = out.wall_ms

        def read(i, v):
            return tensor_from_bytes(out[self.buffers[id(v)]], v.dtype, v.dims)

        write_back(self.call, read)
        return results(self.call, read)


class PlannedBrowser(Executor):
    name = "browser-planned"

    def build(self, call: BoundCall, force: tuple[str, ...] = ()) -> PlannedBrowserNode:
        return PlannedBrowserNode(call, force, self.masked)

    def features(self) -> frozenset[str]:
        return page_features(device().adapter_info(self.masked))


EXECUTOR = PlannedBrowser()


# torch.ops-style entry points (see Executor.build_call and Executor.call)
build = EXECUTOR.build_call
call = EXECUTOR.call
