#include "pipeline_cache.h"

#include <algorithm>
#include <cstring>

#include "webgpu_delegate/device.h"
#include "wgpu_ext.h"
#include "wgpu_util.h"

namespace webgpu_delegate {
namespace {

// The pipeline cache key: name, entry point and each override's exact bits,
// with overrides in name order so their listing order does not matter.
std::string pipeline_key(const KernelSource& kernel, const std::vector<OverrideValue>& overrides) {
  std::vector<std::pair<std::string, double>> sorted;
  for (const auto& o : overrides) sorted.emplace_back(o.name, o.value);
  std::sort(sorted.begin(), sorted.end());
  std::string key = std::string(kernel.name) + '\0' + kernel.entry_point;
  for (const auto& [name, value] : sorted) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    key += '\0' + name + '=' + std::to_string(bits);
  }
  return key;
}

void check_kernel_source(const KernelSource& kernel) {
  if (kernel.name == nullptr || *kernel.name == '\0') {
    throw Error("WebGPU kernel: KernelSource without a name");
  }
  if (kernel.wgsl == nullptr || kernel.entry_point == nullptr || *kernel.entry_point == '\0') {
    throw Error(utils::message("WebGPU kernel ", kernel.name,
                               ": KernelSource needs WGSL text and an entry point"));
  }
  if (kernel.bindings == nullptr || kernel.binding_count == 0) {
    throw Error(
        utils::message("WebGPU kernel ", kernel.name,
                       ": KernelSource needs its binding table (the generated k<Kernel>Bindings)"));
  }
}

}  // namespace

PipelineCache::PipelineCache(Device& device) : device_(device) {}

void PipelineCache::check_same_source(const ShaderEntry& entry, const KernelSource& kernel) {
  if (kernel.wgsl != entry.wgsl_pointer && entry.wgsl != kernel.wgsl) {
    throw Error(utils::message("WebGPU kernel ", kernel.name,
                               ": two different WGSL sources use this kernel name"));
  }
}

const ShaderEntry& PipelineCache::shader(const KernelSource& kernel) {
  auto it = shaders_.find(kernel.name);
  if (it != shaders_.end()) {
    check_same_source(*it->second, kernel);
    return *it->second;
  }

  auto entry = std::make_unique<ShaderEntry>();
  entry->name = kernel.name;
  entry->wgsl = kernel.wgsl;
  entry->wgsl_pointer = kernel.wgsl;
  entry->bindings.assign(kernel.bindings, kernel.bindings + kernel.binding_count);

  WGPUDevice dev = device_.handle();
  device_.push_error_scopes();
  const std::string compiled = ext::compiler_source(entry->wgsl.c_str());
  WGPUShaderSourceWGSL source = WGPU_SHADER_SOURCE_WGSL_INIT;
  source.code = string_view(compiled);
  WGPUShaderModuleDescriptor module_desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  module_desc.nextInChain = &source.chain;
  module_desc.label = string_view(entry->name);
  entry->module.reset(ext::create_shader_module(dev, module_desc, kernel.runtime_checks));

  std::vector<WGPUBindGroupLayoutEntry> layout_entries;
  for (uint32_t i = 0; i < entry->bindings.size(); ++i) {
    const KernelBinding& b = entry->bindings[i];
    WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    e.binding = i;
    e.visibility = WGPUShaderStage_Compute;
    e.buffer = WGPU_BUFFER_BINDING_LAYOUT_INIT;
    e.buffer.type = b.kind == KernelBinding::Kind::Uniform ? WGPUBufferBindingType_Uniform
                    : b.kind == KernelBinding::Kind::ReadOnlyStorage
                        ? WGPUBufferBindingType_ReadOnlyStorage
                        : WGPUBufferBindingType_Storage;
    layout_entries.push_back(e);
  }
  WGPUBindGroupLayoutDescriptor bgl_desc = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  bgl_desc.label = string_view(entry->name);
  bgl_desc.entryCount = layout_entries.size();
  bgl_desc.entries = layout_entries.data();
  entry->bind_group_layout.reset(wgpuDeviceCreateBindGroupLayout(dev, &bgl_desc));
  WGPUPipelineLayoutDescriptor pl_desc = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
  pl_desc.label = string_view(entry->name);
  pl_desc.bindGroupLayoutCount = 1;
  WGPUBindGroupLayout layout = entry->bind_group_layout.get();
  pl_desc.bindGroupLayouts = &layout;
  entry->pipeline_layout.reset(wgpuDeviceCreatePipelineLayout(dev, &pl_desc));
  const std::string errors = device_.pop_error_scopes();
  if (!errors.empty() || !entry->module) {
    throw Error(utils::message("WebGPU kernel ", entry->name, ": shader module creation failed: ",
                               (errors.empty() ? std::string("no module returned") : errors)));
  }
  const ShaderEntry& result = *entry;
  shaders_.emplace(entry->name, std::move(entry));
  return result;
}

const PipelineEntry& PipelineCache::get(const KernelSource& kernel,
                                        const std::vector<OverrideValue>& overrides) {
  check_kernel_source(kernel);
  const std::string key = pipeline_key(kernel, overrides);
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) {
    check_same_source(*it->second->shader, kernel);
    return *it->second;
  }

  const ShaderEntry& shader_entry = shader(kernel);
  std::vector<WGPUConstantEntry> constants;
  for (const auto& o : overrides) {
    if (o.name == nullptr || *o.name == '\0') {
      throw Error(
          utils::message("WebGPU kernel ", kernel.name, ": override constant without a name"));
    }
    WGPUConstantEntry c = WGPU_CONSTANT_ENTRY_INIT;
    c.key = string_view(o.name);
    c.value = o.value;
    constants.push_back(c);
  }
  device_.push_error_scopes();
  WGPUComputePipelineDescriptor desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  desc.label = string_view(kernel.name);
  desc.layout = shader_entry.pipeline_layout.get();
  desc.compute.module = shader_entry.module.get();
  desc.compute.entryPoint = string_view(kernel.entry_point);
  desc.compute.constantCount = constants.size();
  desc.compute.constants = constants.data();
  Handle<WGPUComputePipeline> pipeline{wgpuDeviceCreateComputePipeline(device_.handle(), &desc)};
  const std::string errors = device_.pop_error_scopes();
  if (!errors.empty() || !pipeline) {
    throw Error(utils::message(
        "WebGPU kernel ", kernel.name, ": compute pipeline creation (entry point ",
        kernel.entry_point,
        ") failed: ", (errors.empty() ? std::string("no pipeline returned") : errors)));
  }
  auto entry = std::make_unique<PipelineEntry>();
  entry->shader = &shader_entry;
  entry->entry_point = kernel.entry_point;
  entry->pipeline = std::move(pipeline);
  const PipelineEntry& result = *entry;
  pipelines_.emplace(key, std::move(entry));
  return result;
}

}  // namespace webgpu_delegate
