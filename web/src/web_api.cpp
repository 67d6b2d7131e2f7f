// The WebAssembly module's entry points, called from JavaScript (web/page/opgen_web.js)
// one at a time, each through ccall with {async: true}: the runtime's waits unwind to the
// browser's event loop (Asyncify), so every call may return a promise.
//
// Devices, models and op cases are all the native runtime's own code: webgpu_delegate::
// Device, the VK00 loader (vk::LoadedGraph) and the op runner (tools/op_runner/runner.h).
// A failure returns -1 (or 1 for a case) and leaves its message in opgen_last_error():
// the message the native code throws, unchanged.
#include <emscripten.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "runner.h"
#include "web_model.h"
#include "webgpu_delegate/device.h"
#include "webgpu_delegate/graph.h"

namespace {

using webgpu_delegate::Device;
using webgpu_delegate::web::WebModel;

std::string g_error;
std::string g_text;  // the last string returned to JavaScript
std::map<int, std::unique_ptr<Device>> g_devices;
std::map<int, std::unique_ptr<WebModel>> g_models;
int g_next_id = 1;

template <class F>
int guarded(F&& f) {
  try {
    g_error.clear();
    return f();
  } catch (const webgpu_delegate::Error& e) {
    g_error = e.what();
  } catch (const std::exception& e) {
    g_error = std::string("internal error: ") + e.what();
  }
  return -1;
}

template <class T>
T& lookup(std::map<int, std::unique_ptr<T>>& table, int id, const char* what) {
  auto it = table.find(id);
  if (it == table.end()) throw webgpu_delegate::Error(std::string("no ") + what + " " + std::to_string(id));
  return *it->second;
}

const char* text(std::string s) {
  g_text = std::move(s);
  return g_text.c_str();
}

std::string quote(const std::string& s) {
  return nlohmann::json(s).dump();
}

std::string device_json(const Device& d) {
  const auto& a = d.adapter_description();
  const auto& l = d.limits();
  std::string features;
  for (const auto& f : d.feature_names()) features += (features.empty() ? "" : ", ") + quote(f);
  return "{\"describe\": " + quote(d.describe()) + ", \"device\": " + quote(a.device) +
         ", \"description\": " + quote(a.description) + ", \"vendor\": " + quote(a.vendor) +
         ", \"architecture\": " + quote(a.architecture) + ", \"backend\": " + quote(a.backend) +
         ", \"adapter_type\": " + quote(a.adapter_type) + ", \"features\": [" + features +
         "], \"limits\": {\"maxComputeWorkgroupsPerDimension\": " +
         std::to_string(l.max_workgroups_per_dimension) +
         ", \"maxComputeInvocationsPerWorkgroup\": " +
         std::to_string(l.max_invocations_per_workgroup) +
         ", \"maxStorageBufferBindingSize\": " + std::to_string(l.max_storage_buffer_binding_size) +
         ", \"maxBufferSize\": " + std::to_string(l.max_buffer_size) +
         ", \"maxComputeWorkgroupStorageSize\": " +
         std::to_string(l.max_compute_workgroup_storage_size) + "}}";
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* opgen_last_error() { return g_error.c_str(); }

// A device with every optional feature its adapter offers except `masked` (comma-separated
// WebGPU names), as natively (DeviceOptions).
EMSCRIPTEN_KEEPALIVE int opgen_device_open(const char* masked) {
  return guarded([&] {
    webgpu_delegate::DeviceOptions options;
    const std::string list = masked ? masked : "";
    for (size_t start = 0; start < list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      options.masked_features.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
    auto device = std::make_unique<Device>(options);
    const int id = g_next_id++;
    g_devices[id] = std::move(device);
    return id;
  });
}

EMSCRIPTEN_KEEPALIVE const char* opgen_device_info(int device) {
  std::string out;
  if (guarded([&] { out = device_json(lookup(g_devices, device, "device")); return 0; }) < 0)
    return nullptr;
  return text(out);
}

EMSCRIPTEN_KEEPALIVE int opgen_device_close(int device) {
  return guarded([&] { lookup(g_devices, device, "device"); g_devices.erase(device); return 0; });
}

// Loads a model whose file the page holds as ArrayBuffer `source`: `blob` holds the VH00
// header and flatbuffer, `blob_size` is the whole blob's size, `spec` the model's JSON.
EMSCRIPTEN_KEEPALIVE int opgen_model_load(int device, int source, const uint8_t* blob,
                                          double blob_size, const char* spec) {
  return guarded([&] {
    Device& d = lookup(g_devices, device, "device");
    auto model = std::make_unique<WebModel>(d, source, blob, static_cast<size_t>(blob_size), spec);
    const int id = g_next_id++;
    g_models[id] = std::move(model);
    return id;
  });
}

EMSCRIPTEN_KEEPALIVE const char* opgen_model_info(int model) {
  std::string out;
  if (guarded([&] { out = lookup(g_models, model, "model").describe(); return 0; }) < 0) return nullptr;
  return text(out);
}

EMSCRIPTEN_KEEPALIVE int opgen_model_set_input(int model, int index, const int32_t* dims, int rank,
                                               const uint8_t* data, double nbytes) {
  return guarded([&] {
    std::vector<int64_t> d(dims, dims + rank);
    lookup(g_models, model, "model").set_input(static_cast<size_t>(index), std::move(d), data,
                                               static_cast<size_t>(nbytes));
    return 0;
  });
}

// Runs the model; returns the outputs as JSON: [{dtype, dims, data: address, bytes}] (valid
// until the next run), with the run's counts and host-clock split.
EMSCRIPTEN_KEEPALIVE const char* opgen_model_run(int model) {
  std::string out;
  const int status = guarded([&] {
    WebModel& m = lookup(g_models, model, "model");
    m.run();
    out = "{\"outputs\": [";
    for (size_t j = 0; j < m.outputs().size(); ++j) {
      const auto& t = m.outputs()[j];
      out += (j ? ", " : "") + std::string("{\"dtype\": \"") + dtype_name(t.dtype) + "\", \"dims\": " +
             webgpu_delegate::utils::format_value(t.dims) + ", \"data\": " +
             std::to_string(reinterpret_cast<uintptr_t>(t.bytes.data())) + ", \"bytes\": " +
             std::to_string(t.bytes.size()) + "}";
    }
    out += "], \"stats\": " + m.last_run() + "}";
    return 0;
  });
  return status < 0 ? nullptr : text(out);
}

EMSCRIPTEN_KEEPALIVE int opgen_model_free(int model) {
  return guarded([&] { lookup(g_models, model, "model"); g_models.erase(model); return 0; });
}

// One op case, as webgpu_op_runner --case runs it (files in the module's MEMFS): 0 done,
// 1 an Error (the op's or runtime's message in opgen_last_error, as the runner's stderr).
EMSCRIPTEN_KEEPALIVE int opgen_run_case(int device, const char* case_path, const char* out_dir) {
  const int status = guarded([&] {
    webgpu_delegate::runner::run_case_file(lookup(g_devices, device, "device"), case_path, out_dir);
    return 0;
  });
  return status < 0 ? 1 : 0;
}

// The registered targets, one per line (webgpu_op_runner --list-targets).
EMSCRIPTEN_KEEPALIVE const char* opgen_targets() {
  std::string out;
  for (const auto& t : webgpu_delegate::OperatorRegistry::instance().targets()) out += t + "\n";
  return text(out);
}

}  // extern "C"
