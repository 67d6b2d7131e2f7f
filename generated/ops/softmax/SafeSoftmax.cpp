// @generated from codegen/specs/softmax/softmax.py - DO NOT EDIT.
// Op safe_softmax: aten._safe_softmax.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/softmax/softmax_last_dim_vec4_wgsl.h"
#include "ops/softmax/softmax_last_dim_wgsl.h"
#include "ops/softmax/softmax_strided_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "safe_softmax";

struct SafeSoftmaxParams {
  uint32_t N;
  uint32_t inner;
  uint32_t num_lines;
  uint32_t _pad0;
};
static_assert(offsetof(SafeSoftmaxParams, N) == 0, "SafeSoftmaxParams.N must sit at WGSL offset 0");
static_assert(offsetof(SafeSoftmaxParams, inner) == 4,
              "SafeSoftmaxParams.inner must sit at WGSL offset 4");
static_assert(offsetof(SafeSoftmaxParams, num_lines) == 8,
              "SafeSoftmaxParams.num_lines must sit at WGSL offset 8");
static_assert(sizeof(SafeSoftmaxParams) == 16,
              "SafeSoftmaxParams must match the WGSL struct size 16");

const KernelSource kSoftmaxLastDimVec4Kernel{
    "softmax_last_dim_vec4",
    kSoftmaxLastDimVec4WGSL,
    "main",
    {kSoftmaxLastDimVec4WorkgroupSizeX, kSoftmaxLastDimVec4WorkgroupSizeY,
     kSoftmaxLastDimVec4WorkgroupSizeZ},
    kSoftmaxLastDimVec4Bindings,
    kSoftmaxLastDimVec4BindingCount};
const KernelSource kSoftmaxLastDimKernel{
    "softmax_last_dim",
    kSoftmaxLastDimWGSL,
    "main",
    {kSoftmaxLastDimWorkgroupSizeX, kSoftmaxLastDimWorkgroupSizeY, kSoftmaxLastDimWorkgroupSizeZ},
    kSoftmaxLastDimBindings,
    kSoftmaxLastDimBindingCount};
const KernelSource kSoftmaxStridedKernel{
    "softmax_strided",
    kSoftmaxStridedWGSL,
    "main",
    {kSoftmaxStridedWorkgroupSizeX, kSoftmaxStridedWorkgroupSizeY, kSoftmaxStridedWorkgroupSizeZ},
    kSoftmaxStridedBindings,
    kSoftmaxStridedBindingCount};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kSoftmaxLastDimKernel, &kSoftmaxStridedKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SafeSoftmaxPlan {
  SafeSoftmaxParams params{};
  bool run0 = true;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

SafeSoftmaxPlan plan_safe_softmax(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  const bool in_range = (dim >= -self.rank()) && (dim < self.rank());
  const int64_t d = utils::let(kOp, "d = dim % self.rank if in_range else 0", [&]() -> int64_t {
    return in_range ? utils::floormod(dim, self.rank()) : 0;
  });
  const int64_t N = utils::let(kOp, "N = self.dims[d]", [&]() -> int64_t { return self.dim(d); });
  const int64_t inner = utils::let(kOp, "inner = prod(self.dims[d + 1:])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), utils::add(d, 1), INT64_MAX));
  });
  const int64_t lines = utils::let(kOp, "lines = prod(self.dims[:d]) * inner", [&]() -> int64_t {
    return utils::mul(utils::prod(utils::slice(self.dims(), 0, d)), inner);
  });
  if (!in_range) {
    utils::fail(kOp, "dim", "names a dim the input does not have", utils::format_value(dim),
                "a dim in -" + utils::format_value(self.rank()) + ".." +
                    utils::format_value(utils::sub(self.rank(), 1)));
  }
  utils::check_output_dims(kOp, "out", out, self.dims());

  SafeSoftmaxPlan plan;
  plan.params.N = utils::to_u32(N, kOp, "N");
  plan.params.inner = utils::to_u32(inner, kOp, "inner");
  plan.params.num_lines = utils::to_u32(lines, kOp, "num_lines");
  plan.run0 = (inner == 1) && (utils::floormod(N, 4) == 0);
  if (plan.run0) {
    plan.grid0 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"LOG", 0.0}, {"SAFE", 1.0}};
  }
  plan.run1 = (inner != 1) || (utils::floormod(N, 4) != 0);
  if (plan.run1) {
    if (inner == 1) {
      plan.route1 = 0;  // softmax_last_dim
      plan.grid1 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"LOG", 0.0}, {"SAFE", 1.0}};
    } else {
      plan.route1 = 1;  // softmax_strided
      plan.grid1 = utils::elementwise_grid(lines, kSoftmaxStridedKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"LOG", 0.0}, {"SAFE", 1.0}};
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_safe_softmax_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_safe_softmax(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SafeSoftmaxPlan built = plan_safe_softmax(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(kSoftmaxLastDimVec4Kernel, built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_safe_softmax_outputs(graph, args);
    const SafeSoftmaxPlan plan = plan_safe_softmax(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params, sizeof(plan.params), plan.grid0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params, sizeof(plan.params), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten._safe_softmax.default, webgpu_delegate::add_safe_softmax, None);
