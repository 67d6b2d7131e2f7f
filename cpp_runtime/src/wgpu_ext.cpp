#include "wgpu_ext.h"

#ifdef WEBGPU_DELEGATE_WGPU_NATIVE
#include <wgpu.h>
#endif

namespace webgpu_delegate::ext {

std::shared_ptr<void> restrict_instance_backends(WGPUInstanceDescriptor& desc,
                                                 WGPUBackendType backend) {
#ifdef WEBGPU_DELEGATE_WGPU_NATIVE
  WGPUInstanceBackend backends = WGPUInstanceBackend_All;
  switch (backend) {
    case WGPUBackendType_Vulkan:
      backends = WGPUInstanceBackend_Vulkan;
      break;
    case WGPUBackendType_OpenGL:
    case WGPUBackendType_OpenGLES:
      backends = WGPUInstanceBackend_GL;
      break;
    case WGPUBackendType_Metal:
      backends = WGPUInstanceBackend_Metal;
      break;
    case WGPUBackendType_D3D12:
      backends = WGPUInstanceBackend_DX12;
      break;
    default:
      return nullptr;  // wgpu-native has no instance flag for the others
  }
  auto extras = std::make_shared<WGPUInstanceExtras>();
  *extras = WGPUInstanceExtras{};
  extras->chain.sType = static_cast<WGPUSType>(WGPUSType_InstanceExtras);
  extras->chain.next = desc.nextInChain;
  extras->backends = backends;
  desc.nextInChain = &extras->chain;
  return extras;
#else
  (void)desc;
  (void)backend;
  return nullptr;
#endif
}

bool poll(WGPUDevice device, bool wait) {
#ifdef WEBGPU_DELEGATE_WGPU_NATIVE
  wgpuDevicePoll(device, wait, nullptr);
  return true;
#else
  (void)device;
  (void)wait;
  return false;
#endif
}

}  // namespace webgpu_delegate::ext
