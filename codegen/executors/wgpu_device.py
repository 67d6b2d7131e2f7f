"""The wgpu-py device the Python executors and benchmarks run on, and its caches.

`device()` picks an adapter (a GPU when present, else a CPU adapter such as lavapipe;
`OPGEN_ADAPTER=cpu|gpu|<name>` forces one) and requests the limits and features the
toolkit needs: timestamp queries and every optional feature of `codegen.language.features`
the adapter offers (`device(masked)`: a second device without the masked ones).
Pipelines are cached per device by (kernel, entry point, overrides) like the runtime's,
with explicit bind group layouts from the spec's bindings.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Any

from codegen.language.features import FEATURES
from codegen.paths import REPO_ROOT, kernel_module

# What wgpu-py 0.32 (wgpu-native 29) calls each feature: its adapters list subgroups as
# the native feature "subgroup", not WebGPU's "subgroups".
# naga (wgpu-native 29) implements subgroup operations without the directive and rejects
# `enable subgroups;` ("not yet implemented in Naga"); Tint requires it. The runtime's
# twin is ext::compiler_source (cpp_runtime/src/wgpu_ext.cpp).
_NAGA_REJECTS = re.compile(r"^enable subgroups;$", re.M)


def naga_source(wgsl: str) -> str:
    """A kernel's text as naga takes it: directives naga rejects turned into comments
    (line numbers unchanged)."""
    return _NAGA_REJECTS.sub(lambda m: "// " + m.group(0), wgsl)

def device(masked: frozenset[str] = frozenset()):
    """The harness's (adapter, device): a GPU if present, else a CPU adapter
    (lavapipe/llvmpipe). OPGEN_ADAPTER=cpu|gpu|<name substring> forces a choice. No
    adapter is an error. `masked`: WebGPU features the device is created without."""
    return _device(frozenset(masked))


@functools.lru_cache(maxsize=None)
def _adapter():
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
    return picked[0]


@functools.lru_cache(maxsize=None)
def _device(masked: frozenset[str]):
    adapter = _adapter()
    limits = {k: adapter.limits[k] for k in ("max-buffer-size", "max-storage-buffer-binding-size",
                                             "max-compute-workgroups-per-dimension",
                                             "max-storage-buffers-per-shader-stage")}
    features = [f for f in ("timestamp-query",) if f in adapter.features]
    for name in FEATURES:
        offered = [w for w in FEATURES[name].wgpu_native if w in adapter.features]
        if offered and name not in masked:
            features.append(offered[0])
    dev = adapter.request_device_sync(required_limits=limits, required_features=features)
    return adapter, dev


def features(dev) -> frozenset[str]:
    """The optional WebGPU features (WebGPU's names) `dev` was created with."""
    return frozenset(n for n in FEATURES if any(w in dev.features for w in FEATURES[n].wgpu_native))


def adapter_line() -> str:
    """The adapter, its backend and type, and the optional features its device has."""
    adapter, dev = device()
    i = adapter.info
    return (f"{i.get('device')} ({i.get('backend_type')}, {i.get('adapter_type')}) "
            f"[{', '.join(sorted(features(dev))) or 'no optional features'}]")


@functools.lru_cache(maxsize=None)
def kernel_source(path: str) -> str:
    with open(path) as fh:
        return fh.read()


_PIPELINES: dict[tuple, Any] = {}


def unchecked_module(dev, code: str, label: str, keep: int = 0):
    """`code`'s shader module without wgpu-native's runtime checks (naga's index clamping
    and loop bounding), but those in `keep` (WGPUShaderRuntimeChecks flags; probes keep
    bounds checks alone): wgpuDeviceCreateShaderModuleTrusted, which wgpu-py does not
    wrap. The runtime's twin is ext::create_shader_module (cpp_runtime/src/wgpu_ext.cpp)."""
    from wgpu.backends.wgpu_native._api import (GPUShaderModule, ffi, lib, libf, new_struct_p,
                                                to_c_string_view)

    source = new_struct_p("WGPUShaderSourceWGSL *", code=to_c_string_view(code))
    source[0].chain.next = ffi.NULL
    source[0].chain.sType = lib.WGPUSType_ShaderSourceWGSL
    desc = new_struct_p("WGPUShaderModuleDescriptor *",
                        nextInChain=ffi.cast("WGPUChainedStruct *", source),
                        label=to_c_string_view(label))
    # libf: as wgpu-py's own calls, a compile error raises here
    handle = libf.wgpuDeviceCreateShaderModuleTrusted(dev._internal, desc, keep)
    if handle == ffi.NULL:
        raise RuntimeError(f"kernel {label}: wgpuDeviceCreateShaderModuleTrusted returned no module")
    return GPUShaderModule(label, handle, dev)


def pipeline(kernel, overrides: dict[str, float], dispatch, masked: frozenset[str] = frozenset()):
    """The compute pipeline of `kernel` on `device(masked)` with explicit layouts from the
    spec's bindings (so a binding the kernel body does not read still binds), cached like
    the runtime's."""
    import wgpu

    key = (kernel.name, kernel.entry, tuple(sorted(overrides.items())), frozenset(masked))
    if key not in _PIPELINES:
        _, dev = device(masked)
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
        code = naga_source(kernel_source(str(kernel_module(kernel))))
        module = dev.create_shader_module(code=code, label=kernel.name) if kernel.runtime_checks \
            else unchecked_module(dev, code, kernel.name)
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


def copy_pipeline(masked: frozenset[str] = frozenset()):
    key = (COPY_KERNEL, frozenset(masked))
    if key not in _PIPELINES:
        _, dev = device(masked)
        module = dev.create_shader_module(code=kernel_source(str(REPO_ROOT / COPY_KERNEL)),
                                          label="copy_words")
        _PIPELINES[key] = dev.create_compute_pipeline(
            layout="auto", compute={"module": module, "entry_point": "main"}, label="copy_words")
    return _PIPELINES[key]

