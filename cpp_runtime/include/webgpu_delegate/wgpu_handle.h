// Handle<T>: the one owner of a WebGPU object (WGPUBuffer, WGPUBindGroup, ...). Move-only;
// releases the object (wgpu<Type>Release) when it goes, is reset or is assigned over, so
// an exception between creating an object and storing it leaks nothing.
#pragma once

#include <webgpu.h>

#include <utility>

namespace webgpu_delegate {

// Releaser<T>::release(object): the webgpu.h release call of each handle type.
template <class T>
struct Releaser;

#define WEBGPU_DELEGATE_RELEASER(Type)                                      \
  template <>                                                               \
  struct Releaser<WGPU##Type> {                                             \
    static void release(WGPU##Type object) { wgpu##Type##Release(object); } \
  }
WEBGPU_DELEGATE_RELEASER(Instance);
WEBGPU_DELEGATE_RELEASER(Adapter);
WEBGPU_DELEGATE_RELEASER(Device);
WEBGPU_DELEGATE_RELEASER(Queue);
WEBGPU_DELEGATE_RELEASER(Buffer);
WEBGPU_DELEGATE_RELEASER(QuerySet);
WEBGPU_DELEGATE_RELEASER(ShaderModule);
WEBGPU_DELEGATE_RELEASER(BindGroupLayout);
WEBGPU_DELEGATE_RELEASER(PipelineLayout);
WEBGPU_DELEGATE_RELEASER(ComputePipeline);
WEBGPU_DELEGATE_RELEASER(BindGroup);
WEBGPU_DELEGATE_RELEASER(CommandEncoder);
WEBGPU_DELEGATE_RELEASER(CommandBuffer);
WEBGPU_DELEGATE_RELEASER(ComputePassEncoder);
#undef WEBGPU_DELEGATE_RELEASER

template <class T>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T object) : object_(object) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) reset(std::exchange(other.object_, nullptr));
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  T get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }
  // Releases the object held (if any) and holds `object` instead.
  void reset(T object = nullptr) {
    if (object_) Releaser<T>::release(object_);
    object_ = object;
  }

 private:
  T object_ = nullptr;
};

}  // namespace webgpu_delegate
