"""Optional WebGPU features a kernel may need (`Kernel(..., features=("subgroups",))`).

A route whose kernel needs features is taken only on a device that has them all, else
the dispatch's next route (the portable fallback) is; the last route of a dispatch needs
none. Names are WebGPU's (`GPUFeatureName`); each executor maps them to what its
implementation calls them (wgpu-native 29 / wgpu-py 0.32 say "subgroup").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Feature:
    name: str  # WebGPU's feature name
    enable: str  # the WGSL extension a kernel enables with it (`enable <enable>;`)
    cpp: str  # the member of the runtime's `Feature` enum (graph.h)
    # the names wgpu-native (wgpu-py) may list it under, the first one offered requested
    # (wgpu-native 29 lists subgroups as its native `subgroup`)
    wgpu_native: tuple[str, ...] = ()


# The one list of optional features. The other places that name them (the runtime's
# `Feature` enum and `feature_name`, wgpu_ext.cpp's `feature_ids`, the browser page's
# OPTIONAL_FEATURES) are checked against it by tests/test_features.py.
FEATURES = {f.name: f for f in (
    Feature("shader-f16", "f16", "ShaderF16", ("shader-f16",)),
    Feature("subgroups", "subgroups", "Subgroups", ("subgroups", "subgroup")),
)}


def enable_lines(names) -> list[str]:
    """The WGSL enable directives of a kernel that needs `names`."""
    return [f"enable {FEATURES[n].enable};" for n in names]


def missing(needed, available) -> list[str]:
    """The features of `needed` that `available` lacks, in `needed`'s order."""
    return [n for n in needed if n not in available]
