// A kernel as its generated `<kernel>_wgsl.h` header describes it: the composed WGSL
// module, its entry point and workgroup size, and its bind group as the generator laid it
// out (the runtime never parses WGSL to learn a kernel's interface).
#pragma once

#include <cstdint>

namespace webgpu_delegate {

// One entry of a kernel's bind group, in binding-index order (the ABI).
struct KernelBinding {
  enum class Kind : uint8_t { Uniform, ReadOnlyStorage, Storage };
  const char* name;  // the WGSL variable
  Kind kind;
  // What is bound for an absent optional tensor, or for a tensor the kernel never reads:
  // one element of the declared array in whole 16-byte units (codegen/emit/wgsl_module.py
  // has the rule; every executor uses it).
  uint32_t dummy_bytes;
  bool read;  // whether the kernel's helpers or body name the variable
};

const char* binding_kind_name(KernelBinding::Kind kind);  // "var<uniform>", ...

struct KernelSource {
  const char* name;
  const char* wgsl;
  const char* entry_point;
  uint32_t workgroup_size[3];
  const KernelBinding* bindings;
  uint32_t binding_count;
  const char* features = "";  // WebGPU features it needs, comma-separated
  // false: its module is created without the implementation's shader runtime checks
  // (wgpu-native: naga's index clamping and loop bounding); Dawn keeps them
  bool runtime_checks = true;
};

}  // namespace webgpu_delegate
