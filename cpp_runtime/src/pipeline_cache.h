// Shader modules and compute pipelines, created once per device: modules are
// keyed by kernel name, pipelines by (kernel name, entry point, override
// constants). Every creation runs inside error scopes so a WGSL compile error
// becomes an Error carrying naga's message and the kernel's name.
#pragma once

#include <webgpu.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/wgpu_handle.h"

namespace webgpu_delegate {

class Device;

struct ShaderEntry {
  std::string name;
  std::string wgsl;
  const char* wgsl_pointer = nullptr;  // the text's address when first seen (fast re-check)
  Handle<WGPUShaderModule> module;
  std::vector<KernelBinding> bindings;  // the kernel's table: binding i is entry i
  Handle<WGPUBindGroupLayout> bind_group_layout;
  Handle<WGPUPipelineLayout> pipeline_layout;
};

struct PipelineEntry {
  const ShaderEntry* shader = nullptr;
  std::string entry_point;
  Handle<WGPUComputePipeline> pipeline;
};

class PipelineCache {
 public:
  explicit PipelineCache(Device& device);
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  // The pipeline for `kernel` with `overrides`; compiles on first use.
  const PipelineEntry& get(const KernelSource& kernel, const std::vector<OverrideValue>& overrides);

  size_t shader_modules_created() const { return shaders_.size(); }
  size_t pipelines_created() const { return pipelines_.size(); }

 private:
  const ShaderEntry& shader(const KernelSource& kernel);
  // Error when `kernel` reuses a cached name with different WGSL text.
  static void check_same_source(const ShaderEntry& entry, const KernelSource& kernel);

  Device& device_;
  std::map<std::string, std::unique_ptr<ShaderEntry>> shaders_;
  // after shaders_: its pipelines go first
  std::map<std::string, std::unique_ptr<PipelineEntry>> pipelines_;
};

}  // namespace webgpu_delegate
