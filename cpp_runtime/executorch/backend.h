// The ExecuTorch BackendInterface of the WebGPU delegate, registered under the
// backend id ExecuTorch's Vulkan partitioner emits ("VulkanBackend"): a .pte
// lowered with that partitioner runs on the generated WebGPU handlers.
#pragma once

#include <string>

namespace webgpu_delegate::executorch_backend {

inline constexpr const char* kBackendId = "VulkanBackend";

// ExecuTorch reports a failed init/execute as an error code only; the message
// (naming the op or value) of the most recent failure on this thread is here.
const std::string& last_error();

// Whether the static registration with the ExecuTorch runtime succeeded
// (linking this library registers the backend).
bool registered();

// The adapter the shared device runs on (creates the device when needed).
std::string device_description();

}  // namespace webgpu_delegate::executorch_backend
