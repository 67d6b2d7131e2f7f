// One WebGPU instance/adapter/device/queue, the event loop that drives its
// callbacks, error capture (error scopes, uncaptured errors, device loss) and
// the pipeline cache shared by every graph built on the device.
#pragma once

#include <webgpu.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/wgpu_handle.h"

namespace webgpu_delegate {

class PipelineCache;

struct DeviceOptions {
  // A WGPUBackendType name (Vulkan, OpenGL, OpenGLES, Metal, D3D12, D3D11,
  // WebGPU, Null) that the adapter must use. Empty: read the environment
  // variable WGPU_BACKEND_TYPE (as wgpu-py does); empty there too: any.
  std::string backend;
  WGPUPowerPreference power_preference = WGPUPowerPreference_HighPerformance;
  // Ask for everything the adapter offers instead of the WebGPU defaults
  // (e.g. 1024 invocations per workgroup on desktop GPUs).
  bool request_adapter_limits = true;
  // Optional features (WebGPU names, see Feature) not to request even where the
  // adapter offers them: tests run the fallbacks of feature routes this way.
  std::vector<std::string> masked_features;
  // A lower maxStorageBufferBindingSize than the device's (bytes) for the runtime to
  // enforce (limits(), the graph's binding check): tests of the limit's error on a small
  // model. 0: read the environment variable WEBGPU_MAX_STORAGE_BUFFER_BINDING_SIZE;
  // unset there too: the device's.
  uint64_t max_storage_buffer_binding_size = 0;
};

struct AdapterDescription {
  std::string device;  // e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string description;
  std::string vendor;
  std::string architecture;
  std::string backend;       // "Vulkan", "OpenGL", ...
  std::string adapter_type;  // "DiscreteGPU", "IntegratedGPU", "CPU", "Unknown"
};

class Device {
 public:
  explicit Device(const DeviceOptions& options = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  WGPUInstance instance() const { return objects_.instance.get(); }
  WGPUAdapter adapter() const { return objects_.adapter.get(); }
  WGPUDevice handle() const { return objects_.device.get(); }
  WGPUQueue queue() const { return objects_.queue.get(); }
  const Limits& limits() const { return limits_; }
  const AdapterDescription& adapter_description() const { return description_; }
  bool has_feature(WGPUFeatureName feature) const;
  bool has_feature(Feature feature) const;
  // WebGPU names of the optional features the device has, in kFeatures order.
  std::vector<std::string> feature_names() const;
  // "<device> (<backend>, <adapter type>)"
  std::string describe() const;

  // Drives the callbacks until `done` turns true. `queue_work` says the
  // callback waits on submitted GPU work (then the wait may block on it).
  // Throws Error, naming `what`, when the device is lost meanwhile.
  void wait_until(const bool& done, const char* what, bool queue_work);
  // Blocks until every submitted command buffer has finished.
  void wait_queue_idle();

  // Throws Error for the first uncaptured error or device loss recorded since
  // the last call; `context` says what was running ("execute", ...).
  void check_errors(const std::string& context);
  // Error scopes for validation and out-of-memory errors; pop returns the
  // collected messages ("" when nothing went wrong).
  void push_error_scopes();
  std::string pop_error_scopes();

  PipelineCache& pipelines() { return *pipelines_; }
  const PipelineCache& pipelines() const { return *pipelines_; }
  // Totals over every graph built on this device.
  size_t shader_modules_created() const;
  size_t pipelines_created() const;

 private:
  // The WebGPU objects. Released in this order when the Device goes or its constructor
  // fails: queue and device, then the instance's pending events (the device-lost
  // callback, which sees `tearing_down`), adapter, instance.
  struct Objects {
    Handle<WGPUInstance> instance;
    Handle<WGPUAdapter> adapter;
    Handle<WGPUDevice> device;
    Handle<WGPUQueue> queue;
    bool tearing_down = false;
    ~Objects();
  };

  static void on_uncaptured_error(WGPUDevice const* device, WGPUErrorType type,
                                  WGPUStringView message, void* self, void*);
  static void on_device_lost(WGPUDevice const* device, WGPUDeviceLostReason reason,
                             WGPUStringView message, void* self, void*);
  void acquire_adapter(const DeviceOptions& options);
  void acquire_device(const DeviceOptions& options);
  void read_limits();

  // Declared first, so the callbacks that releasing the objects delivers still find them.
  std::mutex errors_mutex_;
  std::vector<std::string> pending_errors_;  // uncaptured errors, oldest first
  bool lost_ = false;
  std::string lost_message_;

  uint64_t storage_binding_cap_ = 0;  // DeviceOptions::max_storage_buffer_binding_size
  Objects objects_;
  Limits limits_;
  std::vector<Feature> features_;  // the optional features the device was created with
  AdapterDescription description_;
  std::unique_ptr<PipelineCache> pipelines_;  // declared last: released first
};

// A WGPUBackendType's name ("Vulkan") and its inverse (Error on unknown names,
// listing the valid ones).
const char* backend_type_name(WGPUBackendType type);
WGPUBackendType parse_backend_type(const std::string& name);

}  // namespace webgpu_delegate
