// One Device per test binary (lavapipe on CPU-only machines; WGPU_BACKEND_TYPE
// picks the backend).
#pragma once

#include "webgpu_delegate/device.h"

inline webgpu_delegate::Device& test_device() {
  static webgpu_delegate::Device device;
  return device;
}
