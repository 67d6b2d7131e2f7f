// The only place that touches implementation-specific extensions (wgpu-native's
// wgpu.h). Everything else uses the standard webgpu.h API, so the runtime also
// builds against other implementations (e.g. Dawn), where these calls fall back
// to standard behaviour. WEBGPU_DELEGATE_WGPU_NATIVE is set by CMake when the
// implementation ships wgpu.h.
#pragma once

#include <webgpu.h>

#include <memory>

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

}  // namespace webgpu_delegate::ext
