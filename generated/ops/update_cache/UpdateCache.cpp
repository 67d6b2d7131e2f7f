// @generated from codegen/specs/update_cache/update_cache.py - DO NOT EDIT.
// Op update_cache: llama.update_cache.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/update_cache/update_cache_f16_packed_wgsl.h"
#include "ops/update_cache/update_cache_f16_wgsl.h"
#include "ops/update_cache/update_cache_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "update_cache";

struct UpdateCacheParams {
  uint32_t S;
  uint32_t S_max;
  uint32_t inner;
  uint32_t start_pos;
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(UpdateCacheParams, S) == 0, "UpdateCacheParams.S must sit at WGSL offset 0");
static_assert(offsetof(UpdateCacheParams, S_max) == 4,
              "UpdateCacheParams.S_max must sit at WGSL offset 4");
static_assert(offsetof(UpdateCacheParams, inner) == 8,
              "UpdateCacheParams.inner must sit at WGSL offset 8");
static_assert(offsetof(UpdateCacheParams, start_pos) == 12,
              "UpdateCacheParams.start_pos must sit at WGSL offset 12");
static_assert(offsetof(UpdateCacheParams, num_elements) == 16,
              "UpdateCacheParams.num_elements must sit at WGSL offset 16");
static_assert(sizeof(UpdateCacheParams) == 32,
              "UpdateCacheParams must match the WGSL struct size 32");

const KernelSource kUpdateCacheF16Kernel{
    "update_cache_f16",
    kUpdateCacheF16WGSL,
    "main",
    {kUpdateCacheF16WorkgroupSizeX, kUpdateCacheF16WorkgroupSizeY, kUpdateCacheF16WorkgroupSizeZ},
    kUpdateCacheF16Bindings,
    kUpdateCacheF16BindingCount,
    kUpdateCacheF16Features};
const KernelSource kUpdateCacheF16PackedKernel{
    "update_cache_f16_packed",
    kUpdateCacheF16PackedWGSL,
    "main",
    {kUpdateCacheF16PackedWorkgroupSizeX, kUpdateCacheF16PackedWorkgroupSizeY,
     kUpdateCacheF16PackedWorkgroupSizeZ},
    kUpdateCacheF16PackedBindings,
    kUpdateCacheF16PackedBindingCount};
const KernelSource kUpdateCacheKernel{
    "update_cache",
    kUpdateCacheWGSL,
    "main",
    {kUpdateCacheWorkgroupSizeX, kUpdateCacheWorkgroupSizeY, kUpdateCacheWorkgroupSizeZ},
    kUpdateCacheBindings,
    kUpdateCacheBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kUpdateCacheF16Kernel,
                                                 &kUpdateCacheF16PackedKernel, &kUpdateCacheKernel};

// The argument values, checked and turned into what each dispatch needs.
struct UpdateCachePlan {
  size_t route0 = 0;
  UpdateCacheParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

UpdateCachePlan plan_update_cache(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& value = graph.get_tensor(args[0]);
  const Tensor& cache = graph.get_tensor(args[1]);
  const int64_t start_pos = utils::read_int(graph, args[2], kOp, "start_pos", true);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "value", value, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "value", value, 4, 4);
  utils::check_dtype(kOp, "cache", cache, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "cache", cache, 4, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 1, 1);
  const int64_t S = utils::let(kOp, "S = value.dims[1]", [&]() -> int64_t { return value.dim(1); });
  const int64_t S_max =
      utils::let(kOp, "S_max = cache.dims[1]", [&]() -> int64_t { return cache.dim(1); });
  if ((value.dim(0) != cache.dim(0)) ||
      (utils::slice(value.dims(), 2, INT64_MAX) != utils::slice(cache.dims(), 2, INT64_MAX))) {
    utils::fail(kOp, "value", "does not match the cache's batch, heads and head_dim",
                utils::format_value(value.dims()),
                "[" + utils::format_value(cache.dim(0)) + ", S, " +
                    utils::format_value(cache.dim(2)) + ", " + utils::format_value(cache.dim(3)) +
                    "]");
  }
  if ((start_pos < 0) || (utils::add(start_pos, S) > S_max)) {
    utils::fail(kOp, "start_pos", "puts the update past the end of the cache",
                utils::format_value(start_pos), "0.." + utils::format_value(utils::sub(S_max, S)));
  }
  if ((cache.dtype != value.dtype) || (out.dtype != value.dtype)) {
    utils::fail(kOp, "value", "does not share its dtype with cache and out",
                utils::format_value(value.dtype), "the dtype of cache and out");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{1});

  UpdateCachePlan plan;
  plan.params0.S = utils::to_u32(S, kOp, "S");
  plan.params0.S_max = utils::to_u32(S_max, kOp, "S_max");
  plan.params0.inner = utils::to_u32(utils::mul(value.dim(2), value.dim(3)), kOp, "inner");
  plan.params0.start_pos = utils::to_u32(start_pos, kOp, "start_pos");
  plan.params0.num_elements = utils::to_u32(value.numel(), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (value.dtype == DType::Float16)) {
    plan.route0 = 0;  // update_cache_f16
    plan.grid0 = utils::elementwise_grid(utils::max_of(value.numel(), 1),
                                         kUpdateCacheF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (value.dtype == DType::Float16) {
    plan.route0 = 1;  // update_cache_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::max_of(value.numel(), 1),
                                         kUpdateCacheF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // update_cache
    plan.grid0 = utils::elementwise_grid(utils::max_of(value.numel(), 1),
                                         kUpdateCacheKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_update_cache_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, std::vector<int64_t>{1});
}

void add_update_cache(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const UpdateCachePlan built = plan_update_cache(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[3])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_update_cache_outputs(graph, args);
    const UpdateCachePlan plan = plan_update_cache(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP_WRITING(llama.update_cache.default, webgpu_delegate::add_update_cache, 1);
