// The C half of the binding: trampolines through which the JS half (webgpu_js.js) calls
// webgpu.h callbacks. Every callback takes a WGPUStringView by value, which the wasm32 C
// ABI passes through memory; letting the compiler build the call keeps JS out of that.
#include <emscripten.h>
#include <webgpu.h>

static WGPUStringView view(const char* msg, size_t len) {
  WGPUStringView v = {msg, len};
  return v;
}

EMSCRIPTEN_KEEPALIVE void wgpujs_call_map_cb(WGPUBufferMapCallback cb, int status,
                                             const char* msg, size_t len, void* u1, void* u2) {
  cb((WGPUMapAsyncStatus)status, view(msg, len), u1, u2);
}

EMSCRIPTEN_KEEPALIVE void wgpujs_call_done_cb(WGPUQueueWorkDoneCallback cb, int status,
                                              const char* msg, size_t len, void* u1, void* u2) {
  cb((WGPUQueueWorkDoneStatus)status, view(msg, len), u1, u2);
}

EMSCRIPTEN_KEEPALIVE void wgpujs_call_pop_cb(WGPUPopErrorScopeCallback cb, int status, int type,
                                             const char* msg, size_t len, void* u1, void* u2) {
  cb((WGPUPopErrorScopeStatus)status, (WGPUErrorType)type, view(msg, len), u1, u2);
}

EMSCRIPTEN_KEEPALIVE void wgpujs_call_adapter_cb(WGPURequestAdapterCallback cb, int status,
                                                 WGPUAdapter adapter, const char* msg, size_t len,
                                                 void* u1, void* u2) {
  cb((WGPURequestAdapterStatus)status, adapter, view(msg, len), u1, u2);
}

EMSCRIPTEN_KEEPALIVE void wgpujs_call_device_cb(WGPURequestDeviceCallback cb, int status,
                                                WGPUDevice device, const char* msg, size_t len,
                                                void* u1, void* u2) {
  cb((WGPURequestDeviceStatus)status, device, view(msg, len), u1, u2);
}

// The device's uncaptured-error and device-lost callbacks share one shape: the device (by
// pointer), an enum, the message.
EMSCRIPTEN_KEEPALIVE void wgpujs_call_error_cb(WGPUUncapturedErrorCallback cb, WGPUDevice device,
                                               int type, const char* msg, size_t len, void* u1,
                                               void* u2) {
  cb(&device, (WGPUErrorType)type, view(msg, len), u1, u2);
}

EMSCRIPTEN_KEEPALIVE void wgpujs_call_lost_cb(WGPUDeviceLostCallback cb, WGPUDevice device,
                                              int reason, const char* msg, size_t len, void* u1,
                                              void* u2) {
  cb(&device, (WGPUDeviceLostReason)reason, view(msg, len), u1, u2);
}
