#include "webgpu_delegate/device.h"

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <utility>

#include "pipeline_cache.h"
#include "wgpu_ext.h"
#include "wgpu_util.h"

namespace webgpu_delegate {
namespace {

struct BackendName {
  WGPUBackendType type;
  const char* name;
};

// The names wgpu-py accepts in WGPU_BACKEND_TYPE (its BackendType enum).
constexpr BackendName kBackendNames[] = {
    {WGPUBackendType_Undefined, "Undefined"}, {WGPUBackendType_Null, "Null"},
    {WGPUBackendType_WebGPU, "WebGPU"},       {WGPUBackendType_D3D11, "D3D11"},
    {WGPUBackendType_D3D12, "D3D12"},         {WGPUBackendType_Metal, "Metal"},
    {WGPUBackendType_Vulkan, "Vulkan"},       {WGPUBackendType_OpenGL, "OpenGL"},
    {WGPUBackendType_OpenGLES, "OpenGLES"},
};

const char* adapter_type_name(WGPUAdapterType type) {
  switch (type) {
    case WGPUAdapterType_DiscreteGPU:
      return "DiscreteGPU";
    case WGPUAdapterType_IntegratedGPU:
      return "IntegratedGPU";
    case WGPUAdapterType_CPU:
      return "CPU";
    default:
      return "Unknown";
  }
}

const char* error_type_name(WGPUErrorType type) {
  switch (type) {
    case WGPUErrorType_Validation:
      return "validation error";
    case WGPUErrorType_OutOfMemory:
      return "out-of-memory error";
    case WGPUErrorType_Internal:
      return "internal error";
    default:
      return "error";
  }
}

// Whether `options` masks `feature`; an unknown name is an Error listing the known ones.
bool masked(const DeviceOptions& options, Feature feature) {
  bool found = false;
  for (const std::string& name : options.masked_features) {
    std::string known;
    bool valid = false;
    for (Feature f : kFeatures) {
      valid = valid || name == feature_name(f);
      known += (known.empty() ? "" : ", ") + std::string(feature_name(f));
    }
    if (!valid) {
      throw Error(utils::message("WebGPU device: cannot mask unknown feature '", name,
                                 "' (known: ", known, ")"));
    }
    found = found || name == feature_name(feature);
  }
  return found;
}

// A positive count from environment variable `name`; 0 when it is unset or empty.
uint64_t env_count(const char* name, const char* what) {
  const char* env = std::getenv(name);
  if (env == nullptr || *env == '\0') return 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 10);
  if (*end != '\0' || v == 0) {
    throw Error(utils::message("WebGPU device: ", name, " is not a positive ", what, " (got \"",
                               env, "\")"));
  }
  return v;
}

// DeviceOptions::max_storage_buffer_binding_size, or the environment's; 0: none.
uint64_t storage_binding_cap(const DeviceOptions& options) {
  if (options.max_storage_buffer_binding_size != 0) return options.max_storage_buffer_binding_size;
  return env_count("WEBGPU_MAX_STORAGE_BUFFER_BINDING_SIZE", "byte count");
}

}  // namespace

const char* feature_name(Feature feature) {
  switch (feature) {
    case Feature::ShaderF16:
      return "shader-f16";
    case Feature::Subgroups:
      return "subgroups";
  }
  return "unknown";
}

const char* backend_type_name(WGPUBackendType type) {
  for (const auto& b : kBackendNames) {
    if (b.type == type) return b.name;
  }
  return "Unknown";
}

WGPUBackendType parse_backend_type(const std::string& name) {
  std::string valid;
  for (const auto& b : kBackendNames) {
    if (name == b.name) return b.type;
    valid += valid.empty() ? "" : ", ";
    valid += b.name;
  }
  throw Error(utils::message("WebGPU device: unknown backend type '", name, "' (expected one of ",
                             valid, ")"));
}

Device::Device(const DeviceOptions& options) : storage_binding_cap_(storage_binding_cap(options)) {
  acquire_adapter(options);
  acquire_device(options);
  read_limits();
  pipelines_ = std::make_unique<PipelineCache>(*this);
}

Device::~Device() = default;

Device::Objects::~Objects() {
  tearing_down = true;
  queue.reset();
  device.reset();
  // Deliver the device-lost callback (reason Destroyed/CallbackCancelled) while the
  // Device is still alive.
  if (instance) wgpuInstanceProcessEvents(instance.get());
  adapter.reset();
  instance.reset();
}

void Device::acquire_adapter(const DeviceOptions& options) {
  std::string backend_name = options.backend;
  if (backend_name.empty()) {
    const char* env = std::getenv("WGPU_BACKEND_TYPE");
    if (env) backend_name = env;
  }
  const WGPUBackendType backend =
      backend_name.empty() ? WGPUBackendType_Undefined : parse_backend_type(backend_name);

  WGPUInstanceDescriptor instance_desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  auto keep_alive = ext::restrict_instance_backends(instance_desc, backend);
  objects_.instance.reset(wgpuCreateInstance(&instance_desc));
  if (!objects_.instance) throw Error("WebGPU device: wgpuCreateInstance failed");

  RequestResult<WGPURequestAdapterStatus, WGPUAdapter, WGPURequestAdapterStatus_Success> result;
  WGPURequestAdapterOptions adapter_options = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  adapter_options.powerPreference = options.power_preference;
  adapter_options.backendType = backend;
  WGPURequestAdapterCallbackInfo callback = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  callback.mode = WGPUCallbackMode_AllowProcessEvents;
  callback.callback = decltype(result)::on_request;
  callback.userdata1 = &result;
  wgpuInstanceRequestAdapter(instance(), &adapter_options, callback);
  while (!result.done) wgpuInstanceProcessEvents(instance());
  if (!result.object) {
    throw Error(
        utils::message("WebGPU device: no adapter",
                       (backend_name.empty() ? std::string() : " for backend " + backend_name),
                       ": ", result.message));
  }
  objects_.adapter.reset(result.object);

  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  if (wgpuAdapterGetInfo(adapter(), &info) != WGPUStatus_Success) {
    throw Error("WebGPU device: wgpuAdapterGetInfo failed");
  }
  description_.device = to_string(info.device);
  description_.description = to_string(info.description);
  description_.vendor = to_string(info.vendor);
  description_.architecture = to_string(info.architecture);
  description_.backend = backend_type_name(info.backendType);
  description_.adapter_type = adapter_type_name(info.adapterType);
  const WGPUBackendType got = info.backendType;
  wgpuAdapterInfoFreeMembers(info);
  if (backend != WGPUBackendType_Undefined && got != backend) {
    throw Error(utils::message("WebGPU device: adapter backend is ", description_.backend,
                               ", expected ", backend_name));
  }
}

void Device::acquire_device(const DeviceOptions& options) {
  WGPULimits adapter_limits = WGPU_LIMITS_INIT;
  if (wgpuAdapterGetLimits(adapter(), &adapter_limits) != WGPUStatus_Success) {
    throw Error("WebGPU device: wgpuAdapterGetLimits failed");
  }
  std::vector<WGPUFeatureName> features;
  for (Feature f : kFeatures) {
    const WGPUFeatureName offered = ext::offered_feature(adapter(), f);
    if (offered != WGPUFeatureName_Force32 && !masked(options, f)) features.push_back(offered);
  }
  if (wgpuAdapterHasFeature(adapter(), WGPUFeatureName_TimestampQuery)) {  // for profiling
    features.push_back(WGPUFeatureName_TimestampQuery);
  }

  RequestResult<WGPURequestDeviceStatus, WGPUDevice, WGPURequestDeviceStatus_Success> result;
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.label = string_view("webgpu_delegate");
  desc.requiredFeatureCount = features.size();
  desc.requiredFeatures = features.data();
  desc.requiredLimits = options.request_adapter_limits ? &adapter_limits : nullptr;
  desc.uncapturedErrorCallbackInfo.callback = &Device::on_uncaptured_error;
  desc.uncapturedErrorCallbackInfo.userdata1 = this;
  desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowProcessEvents;
  desc.deviceLostCallbackInfo.callback = &Device::on_device_lost;
  desc.deviceLostCallbackInfo.userdata1 = this;

  WGPURequestDeviceCallbackInfo callback = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  callback.mode = WGPUCallbackMode_AllowProcessEvents;
  callback.callback = decltype(result)::on_request;
  callback.userdata1 = &result;
  wgpuAdapterRequestDevice(adapter(), &desc, callback);
  while (!result.done) wgpuInstanceProcessEvents(instance());
  if (!result.object) {
    throw Error(utils::message("WebGPU device: requestDevice failed on ", description_.device, ": ",
                               result.message));
  }
  objects_.device.reset(result.object);
  objects_.queue.reset(wgpuDeviceGetQueue(handle()));
  for (Feature f : kFeatures) {
    if (ext::device_has(handle(), f)) features_.push_back(f);
  }
}

void Device::read_limits() {
  WGPULimits l = WGPU_LIMITS_INIT;
  if (wgpuDeviceGetLimits(handle(), &l) != WGPUStatus_Success) {
    throw Error("WebGPU device: wgpuDeviceGetLimits failed");
  }
  limits_.max_workgroups_per_dimension = l.maxComputeWorkgroupsPerDimension;
  limits_.max_invocations_per_workgroup = l.maxComputeInvocationsPerWorkgroup;
  limits_.max_workgroup_size[0] = l.maxComputeWorkgroupSizeX;
  limits_.max_workgroup_size[1] = l.maxComputeWorkgroupSizeY;
  limits_.max_workgroup_size[2] = l.maxComputeWorkgroupSizeZ;
  limits_.max_storage_buffer_binding_size = l.maxStorageBufferBindingSize;
  if (storage_binding_cap_ != 0) {
    limits_.max_storage_buffer_binding_size =
        std::min<uint64_t>(limits_.max_storage_buffer_binding_size, storage_binding_cap_);
  }
  limits_.max_buffer_size = l.maxBufferSize;
  limits_.max_uniform_buffer_binding_size = l.maxUniformBufferBindingSize;
  limits_.max_storage_buffers_per_shader_stage = l.maxStorageBuffersPerShaderStage;
  // a lower count for the runtime's choices (the fused operators, vk_fusion.h): tests of
  // the unfused graph a device with WebGPU's default 8 runs
  if (const uint64_t cap = env_count("WEBGPU_MAX_STORAGE_BUFFERS_PER_SHADER_STAGE", "count")) {
    limits_.max_storage_buffers_per_shader_stage = static_cast<uint32_t>(
        std::min<uint64_t>(limits_.max_storage_buffers_per_shader_stage, cap));
  }
  limits_.max_compute_workgroup_storage_size = l.maxComputeWorkgroupStorageSize;
}

bool Device::has_feature(WGPUFeatureName feature) const {
  return wgpuDeviceHasFeature(handle(), feature);
}

bool Device::has_feature(Feature feature) const {
  for (Feature f : features_) {
    if (f == feature) return true;
  }
  return false;
}

std::vector<std::string> Device::feature_names() const {
  std::vector<std::string> names;
  for (Feature f : features_) names.push_back(feature_name(f));
  return names;
}

size_t Device::shader_modules_created() const {
  return pipelines_->shader_modules_created();
}
size_t Device::pipelines_created() const {
  return pipelines_->pipelines_created();
}

std::string Device::describe() const {
  return description_.device + " (" + description_.backend + ", " + description_.adapter_type + ")";
}

void Device::on_uncaptured_error(WGPUDevice const*, WGPUErrorType type, WGPUStringView message,
                                 void* self, void*) {
  auto* device = static_cast<Device*>(self);
  std::lock_guard<std::mutex> lock(device->errors_mutex_);
  const std::string text = to_string(message);
  // wgpu-native 29 does not deliver the device-lost callback for a destroyed device;
  // each later call fails with this validation error instead. Record the loss, so
  // every sync point throws before anything reaches a lost queue (a submit there
  // aborts the process).
  if (!device->lost_ && text.find("device is lost") != std::string::npos) {
    device->lost_ = true;
    device->lost_message_ = text;
  }
  device->pending_errors_.push_back(std::string(error_type_name(type)) + ": " + text);
}

void Device::on_device_lost(WGPUDevice const*, WGPUDeviceLostReason reason, WGPUStringView message,
                            void* self, void*) {
  auto* device = static_cast<Device*>(self);
  if (device->objects_.tearing_down) return;  // our own release, not a failure
  std::lock_guard<std::mutex> lock(device->errors_mutex_);
  device->lost_ = true;
  device->lost_message_ =
      utils::message("reason ", static_cast<int>(reason), ": ", to_string(message));
}

void Device::check_errors(const std::string& context) {
  std::lock_guard<std::mutex> lock(errors_mutex_);
  if (lost_) {
    throw Error(utils::message("WebGPU device lost during ", context, " (", lost_message_, ")"));
  }
  if (!pending_errors_.empty()) {
    std::string message = "WebGPU " + context + ": uncaptured " + pending_errors_.front();
    if (pending_errors_.size() > 1) {
      message += utils::message(" (and ", pending_errors_.size() - 1, " more)");
    }
    pending_errors_.clear();
    throw Error(message);
  }
}

void Device::wait_until(const bool& done, const char* what, bool queue_work) {
  if (!done && queue_work) ext::poll(handle(), /*wait=*/true);
  while (!done) {
    wgpuInstanceProcessEvents(instance());
    if (done) break;
    {
      std::lock_guard<std::mutex> lock(errors_mutex_);
      if (lost_) {
        throw Error(utils::message("WebGPU device lost while waiting for ", what, " (",
                                   lost_message_, ")"));
      }
    }
    if (!ext::poll(handle(), /*wait=*/false)) std::this_thread::yield();
  }
}

void Device::wait_queue_idle() {
  StatusResult<WGPUQueueWorkDoneStatus> result;
  WGPUQueueWorkDoneCallbackInfo callback = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  callback.mode = WGPUCallbackMode_AllowProcessEvents;
  callback.callback = decltype(result)::on_status;
  callback.userdata1 = &result;
  wgpuQueueOnSubmittedWorkDone(queue(), callback);
  wait_until(result.done, "submitted work", /*queue_work=*/true);
  if (result.status != WGPUQueueWorkDoneStatus_Success) {
    throw Error(utils::message("WebGPU device: submitted work failed (status ",
                               static_cast<int>(result.status), "): ", result.message));
  }
}

// Validation and out-of-memory scopes: wgpu-native 29 aborts on an Internal
// filter, so internal errors reach the uncaptured-error callback instead
// (and check_errors throws them).
constexpr int kErrorScopes = 2;

void Device::push_error_scopes() {
  wgpuDevicePushErrorScope(handle(), WGPUErrorFilter_OutOfMemory);
  wgpuDevicePushErrorScope(handle(), WGPUErrorFilter_Validation);
}

std::string Device::pop_error_scopes() {
  struct Result {
    bool done = false;
    std::string message;
  };
  std::string messages;
  for (int i = 0; i < kErrorScopes; ++i) {
    Result result;
    WGPUPopErrorScopeCallbackInfo callback = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
    callback.mode = WGPUCallbackMode_AllowProcessEvents;
    callback.callback = [](WGPUPopErrorScopeStatus status, WGPUErrorType type,
                           WGPUStringView message, void* user, void*) {
      auto* r = static_cast<Result*>(user);
      if (status != WGPUPopErrorScopeStatus_Success) {
        r->message = "popping an error scope failed: " + to_string(message);
      } else if (type != WGPUErrorType_NoError) {
        r->message = std::string(error_type_name(type)) + ": " + to_string(message);
      }
      r->done = true;
    };
    callback.userdata1 = &result;
    wgpuDevicePopErrorScope(handle(), callback);
    wait_until(result.done, "an error scope", /*queue_work=*/false);
    if (!result.message.empty()) {
      if (!messages.empty()) messages += "\n";
      messages += result.message;
    }
  }
  return messages;
}

}  // namespace webgpu_delegate
