#include "wgpu_ext.h"

#include <vector>

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

namespace {

// The values an implementation may use for `feature`, standard first.
std::vector<WGPUFeatureName> feature_ids(Feature feature) {
  switch (feature) {
    case Feature::ShaderF16:
      return {WGPUFeatureName_ShaderF16};
    case Feature::Subgroups:
#ifdef WEBGPU_DELEGATE_WGPU_NATIVE
      return {WGPUFeatureName_Subgroups, static_cast<WGPUFeatureName>(WGPUNativeFeature_Subgroup)};
#else
      return {WGPUFeatureName_Subgroups};
#endif
  }
  return {};
}

}  // namespace

WGPUFeatureName offered_feature(WGPUAdapter adapter, Feature feature) {
  for (WGPUFeatureName id : feature_ids(feature)) {
    if (wgpuAdapterHasFeature(adapter, id)) return id;
  }
  return WGPUFeatureName_Force32;
}

bool device_has(WGPUDevice device, Feature feature) {
  for (WGPUFeatureName id : feature_ids(feature)) {
    if (wgpuDeviceHasFeature(device, id)) return true;
  }
  return false;
}

std::string compiler_source(const char* wgsl) {
  std::string text = wgsl;
#ifdef WEBGPU_DELEGATE_WGPU_NATIVE
  const std::string directive = "enable subgroups;";
  for (size_t at = text.find(directive); at != std::string::npos;
       at = text.find(directive, at + 1)) {
    const bool line_start = at == 0 || text[at - 1] == '\n';
    const size_t end = at + directive.size();
    if (line_start && (end == text.size() || text[end] == '\n')) text.insert(at, "// ");
  }
#endif
  return text;
}

WGPUShaderModule create_shader_module(WGPUDevice device, const WGPUShaderModuleDescriptor& desc,
                                      bool runtime_checks) {
#ifdef WEBGPU_DELEGATE_WGPU_NATIVE
  if (!runtime_checks) {
    return wgpuDeviceCreateShaderModuleTrusted(device, &desc, WGPUShaderRuntimeChecks_None);
  }
#else
  (void)runtime_checks;
#endif
  return wgpuDeviceCreateShaderModule(device, &desc);
}

}  // namespace webgpu_delegate::ext
