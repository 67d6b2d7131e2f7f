// Reads the buffer bindings a WGSL module declares (group, binding, address
// space, access) so the runtime can build an explicit bind group layout and
// check the bindings a handler passes against the shader.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace webgpu_delegate {

struct WgslBinding {
  enum class Kind : uint8_t { Uniform, ReadOnlyStorage, Storage };
  uint32_t group = 0;
  uint32_t binding = 0;
  Kind kind = Kind::Uniform;
  std::string name;  // the variable's name
  // Whether the module names the variable anywhere but its declaration (comments aside).
  // A tensor bound where it is not is never read: the runtime binds a dummy there, so a
  // route that ignores a binding its dispatch declares for another route does not keep
  // that tensor alive (conv2d_gemm reads wpack, conv2d_gemm128 the raw weight).
  bool referenced = true;
};

const char* wgsl_binding_kind_name(WgslBinding::Kind kind);  // "var<uniform>", ...

// Declarations in source order. Throws Error (naming `kernel`) for resource
// bindings the runtime does not support (textures, samplers, other spaces).
std::vector<WgslBinding> parse_wgsl_bindings(const std::string& wgsl, const std::string& kernel);

}  // namespace webgpu_delegate
