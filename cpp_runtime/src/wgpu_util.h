// Small internal helpers around webgpu.h types.
#pragma once

#include <webgpu.h>

#include <string>

namespace webgpu_delegate {

inline WGPUStringView string_view(const char* s) {
  return WGPUStringView{s, WGPU_STRLEN};
}
inline WGPUStringView string_view(const std::string& s) {
  return WGPUStringView{s.data(), s.size()};
}

inline std::string to_string(WGPUStringView v) {
  if (v.data == nullptr) return {};
  return v.length == WGPU_STRLEN ? std::string(v.data) : std::string(v.data, v.length);
}

inline uint64_t round_up(uint64_t v, uint64_t multiple) {
  return (v + multiple - 1) / multiple * multiple;
}

// What an asynchronous call reported through a callback of the (status, message)
// shape (queue work done, buffer map). Pass `on_status` as the callback and the
// result as userdata1, then wait until `done`.
template <typename Status>
struct StatusResult {
  bool done = false;
  Status status{};
  std::string message;

  static void on_status(Status status, WGPUStringView message, void* user, void*) {
    auto* r = static_cast<StatusResult*>(user);
    r->status = status;
    r->message = to_string(message);
    r->done = true;
  }
};

// The same for a request that hands over an object (adapter, device): `object` on
// success, otherwise `message`.
template <typename Status, typename Object, Status kSuccess>
struct RequestResult {
  bool done = false;
  Object object = nullptr;
  std::string message;

  static void on_request(Status status, Object object, WGPUStringView message, void* user, void*) {
    auto* r = static_cast<RequestResult*>(user);
    if (status == kSuccess) {
      r->object = object;
    } else {
      r->message = to_string(message);
    }
    r->done = true;
  }
};

}  // namespace webgpu_delegate
