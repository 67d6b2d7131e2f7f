// @generated from codegen/specs/update_cache/update_cache.py - DO NOT EDIT.
// Op update_cache: llama.update_cache.default

#include <cstddef>
#include <cstdint>
#include <vector>

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

const KernelSource kUpdateCacheKernel{
    "update_cache",
    kUpdateCacheWGSL,
    "main",
    {kUpdateCacheWorkgroupSizeX, kUpdateCacheWorkgroupSizeY, kUpdateCacheWorkgroupSizeZ},
    kUpdateCacheBindings,
    kUpdateCacheBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct UpdateCachePlan {
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
  utils::check_dtype(kOp, "value", value, {DType::Float32});
  utils::check_rank(kOp, "value", value, 4, 4);
  utils::check_dtype(kOp, "cache", cache, {DType::Float32});
  utils::check_rank(kOp, "cache", cache, 4, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
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
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{1});

  UpdateCachePlan plan;
  plan.params0.S = utils::to_u32(S, kOp, "S");
  plan.params0.S_max = utils::to_u32(S_max, kOp, "S_max");
  plan.params0.inner = utils::to_u32(utils::mul(value.dim(2), value.dim(3)), kOp, "inner");
  plan.params0.start_pos = utils::to_u32(start_pos, kOp, "start_pos");
  plan.params0.num_elements = utils::to_u32(value.numel(), kOp, "num_elements");
  plan.grid0 =
      utils::elementwise_grid(utils::max_of(value.numel(), 1), kUpdateCacheKernel.workgroup_size[0],
                              graph.limits().max_workgroups_per_dimension);
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
      kUpdateCacheKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[3])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_update_cache_outputs(graph, args);
    const UpdateCachePlan plan = plan_update_cache(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(llama.update_cache.default, webgpu_delegate::add_update_cache, WritesInputs);
