// The only place that touches implementation-specific extensions (wgpu-native's
// wgpu.h). Everything else uses the standard webgpu.h API, so the runtime also
// builds against other implementations (e.g. Dawn), where these calls fall back
// to standard behaviour. WEBGPU_DELEGATE_WGPU_NATIVE is set by CMake when the
// implementation ships wgpu.h.
#pragma once

#include <webgpu.h>

#include <memory>
#include <string>

#include "webgpu_delegate/graph.h"

namespace webgpu_delegate::ext {

// Chains an extension struct into `desc` that enables only `backend`'s
// instance backend (standard API: the adapter option alone selects it).
// The returned object keeps the chained struct alive until the instance exists.
std::shared_ptr<void> restrict_instance_backends(WGPUInstanceDescriptor& desc,
                                                 WGPUBackendType backend);

// Makes progress on submitted work; with `wait`, blocks until the queue is
// idle. Returns false where the implementation has no such call (the caller
// then spins on wgpuInstanceProcessEvents).
bool poll(WGPUDevice device, bool wait);

// The feature value to request for `feature` where `adapter` offers it, else
// WGPUFeatureName_Force32. wgpu-native 29 offers subgroups as its native
// WGPUNativeFeature_Subgroup, not as WebGPU's WGPUFeatureName_Subgroups.
WGPUFeatureName offered_feature(WGPUAdapter adapter, Feature feature);
bool device_has(WGPUDevice device, Feature feature);

// A kernel's WGSL as the implementation's compiler takes it. naga (wgpu-native 29)
// implements subgroup operations without the directive and rejects `enable
// subgroups;`, which Tint (Dawn) requires: here it becomes a comment, line for
// line (the harness's twin: codegen/executors/wgpu_device.py naga_source).
std::string compiler_source(const char* wgsl);

// The kernel's shader module; without runtime checks (KernelSource::runtime_checks)
// where the implementation can drop them (wgpu-native: naga's index clamping and loop
// bounding), else the standard call.
WGPUShaderModule create_shader_module(WGPUDevice device, const WGPUShaderModuleDescriptor& desc,
                                      bool runtime_checks);

}  // namespace webgpu_delegate::ext
