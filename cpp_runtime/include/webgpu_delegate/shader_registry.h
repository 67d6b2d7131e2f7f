// Every kernel the generated handlers can dispatch, in one list. The
// definition is generated (generated/shader_registry.cpp); tools use it to
// pre-compile or enumerate the delegate's shaders.
#pragma once

#include <vector>

#include "webgpu_delegate/graph.h"

namespace webgpu_delegate {

const std::vector<KernelSource>& all_kernels();

}  // namespace webgpu_delegate
