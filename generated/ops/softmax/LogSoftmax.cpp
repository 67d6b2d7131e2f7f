// @generated from codegen/specs/softmax/softmax.py - DO NOT EDIT.
// Op log_softmax: aten._log_softmax.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/softmax/softmax_last_dim_f16_packed_wgsl.h"
#include "ops/softmax/softmax_last_dim_f16_wgsl.h"
#include "ops/softmax/softmax_last_dim_vec4_f16_packed_wgsl.h"
#include "ops/softmax/softmax_last_dim_vec4_f16_wgsl.h"
#include "ops/softmax/softmax_last_dim_vec4_wgsl.h"
#include "ops/softmax/softmax_last_dim_wgsl.h"
#include "ops/softmax/softmax_strided_f16_packed_wgsl.h"
#include "ops/softmax/softmax_strided_f16_wgsl.h"
#include "ops/softmax/softmax_strided_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "log_softmax";

struct LogSoftmaxParams {
  uint32_t N;
  uint32_t inner;
  uint32_t num_rows;
  uint32_t _pad0;
};
static_assert(offsetof(LogSoftmaxParams, N) == 0, "LogSoftmaxParams.N must sit at WGSL offset 0");
static_assert(offsetof(LogSoftmaxParams, inner) == 4,
              "LogSoftmaxParams.inner must sit at WGSL offset 4");
static_assert(offsetof(LogSoftmaxParams, num_rows) == 8,
              "LogSoftmaxParams.num_rows must sit at WGSL offset 8");
static_assert(sizeof(LogSoftmaxParams) == 16,
              "LogSoftmaxParams must match the WGSL struct size 16");

const KernelSource kSoftmaxLastDimVec4F16Kernel{
    "softmax_last_dim_vec4_f16",
    kSoftmaxLastDimVec4F16WGSL,
    "main",
    {kSoftmaxLastDimVec4F16WorkgroupSizeX, kSoftmaxLastDimVec4F16WorkgroupSizeY,
     kSoftmaxLastDimVec4F16WorkgroupSizeZ},
    kSoftmaxLastDimVec4F16Bindings,
    kSoftmaxLastDimVec4F16BindingCount,
    kSoftmaxLastDimVec4F16Features};
const KernelSource kSoftmaxLastDimVec4F16PackedKernel{
    "softmax_last_dim_vec4_f16_packed",
    kSoftmaxLastDimVec4F16PackedWGSL,
    "main",
    {kSoftmaxLastDimVec4F16PackedWorkgroupSizeX, kSoftmaxLastDimVec4F16PackedWorkgroupSizeY,
     kSoftmaxLastDimVec4F16PackedWorkgroupSizeZ},
    kSoftmaxLastDimVec4F16PackedBindings,
    kSoftmaxLastDimVec4F16PackedBindingCount};
const KernelSource kSoftmaxLastDimVec4Kernel{
    "softmax_last_dim_vec4",
    kSoftmaxLastDimVec4WGSL,
    "main",
    {kSoftmaxLastDimVec4WorkgroupSizeX, kSoftmaxLastDimVec4WorkgroupSizeY,
     kSoftmaxLastDimVec4WorkgroupSizeZ},
    kSoftmaxLastDimVec4Bindings,
    kSoftmaxLastDimVec4BindingCount};
const KernelSource kSoftmaxLastDimF16Kernel{
    "softmax_last_dim_f16",
    kSoftmaxLastDimF16WGSL,
    "main",
    {kSoftmaxLastDimF16WorkgroupSizeX, kSoftmaxLastDimF16WorkgroupSizeY,
     kSoftmaxLastDimF16WorkgroupSizeZ},
    kSoftmaxLastDimF16Bindings,
    kSoftmaxLastDimF16BindingCount,
    kSoftmaxLastDimF16Features};
const KernelSource kSoftmaxLastDimF16PackedKernel{
    "softmax_last_dim_f16_packed",
    kSoftmaxLastDimF16PackedWGSL,
    "main",
    {kSoftmaxLastDimF16PackedWorkgroupSizeX, kSoftmaxLastDimF16PackedWorkgroupSizeY,
     kSoftmaxLastDimF16PackedWorkgroupSizeZ},
    kSoftmaxLastDimF16PackedBindings,
    kSoftmaxLastDimF16PackedBindingCount};
const KernelSource kSoftmaxStridedF16Kernel{
    "softmax_strided_f16",
    kSoftmaxStridedF16WGSL,
    "main",
    {kSoftmaxStridedF16WorkgroupSizeX, kSoftmaxStridedF16WorkgroupSizeY,
     kSoftmaxStridedF16WorkgroupSizeZ},
    kSoftmaxStridedF16Bindings,
    kSoftmaxStridedF16BindingCount,
    kSoftmaxStridedF16Features};
const KernelSource kSoftmaxStridedF16PackedKernel{
    "softmax_strided_f16_packed",
    kSoftmaxStridedF16PackedWGSL,
    "main",
    {kSoftmaxStridedF16PackedWorkgroupSizeX, kSoftmaxStridedF16PackedWorkgroupSizeY,
     kSoftmaxStridedF16PackedWorkgroupSizeZ},
    kSoftmaxStridedF16PackedBindings,
    kSoftmaxStridedF16PackedBindingCount};
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
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kSoftmaxLastDimVec4F16Kernel, &kSoftmaxLastDimVec4F16PackedKernel, &kSoftmaxLastDimVec4Kernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {
    &kSoftmaxLastDimF16Kernel,       &kSoftmaxLastDimF16PackedKernel, &kSoftmaxStridedF16Kernel,
    &kSoftmaxStridedF16PackedKernel, &kSoftmaxLastDimKernel,          &kSoftmaxStridedKernel};

// The argument values, checked and turned into what each dispatch needs.
struct LogSoftmaxPlan {
  LogSoftmaxParams params{};
  bool run0 = true;
  size_t route0 = 0;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

LogSoftmaxPlan plan_log_softmax(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const bool half_to_float = graph.get_bool(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
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
  if (half_to_float) {
    utils::fail(kOp, "half_to_float", "is not supported (the output has the input's dtype)",
                utils::format_value(half_to_float), "false");
  }
  utils::check_output_dims(kOp, "out", out, self.dims());

  LogSoftmaxPlan plan;
  plan.params.N = utils::to_u32(N, kOp, "N");
  plan.params.inner = utils::to_u32(inner, kOp, "inner");
  plan.params.num_rows = utils::to_u32(lines, kOp, "num_rows");
  plan.run0 = (inner == 1) && (utils::floormod(N, 4) == 0);
  if (plan.run0) {
    if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route0 = 0;  // softmax_last_dim_vec4_f16
      plan.grid0 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    } else if (self.dtype == DType::Float16) {
      plan.route0 = 1;  // softmax_last_dim_vec4_f16_packed
      plan.grid0 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    } else {
      plan.route0 = 2;  // softmax_last_dim_vec4
      plan.grid0 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    }
  }
  plan.run1 = (inner != 1) || (utils::floormod(N, 4) != 0);
  if (plan.run1) {
    if (graph.has_feature(Feature::ShaderF16) && ((self.dtype == DType::Float16) && (inner == 1))) {
      plan.route1 = 0;  // softmax_last_dim_f16
      plan.grid1 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    } else if ((self.dtype == DType::Float16) && (inner == 1)) {
      plan.route1 = 1;  // softmax_last_dim_f16_packed
      plan.grid1 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route1 = 2;  // softmax_strided_f16
      plan.grid1 = utils::elementwise_grid(lines, kSoftmaxStridedF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    } else if (self.dtype == DType::Float16) {
      plan.route1 = 3;  // softmax_strided_f16_packed
      plan.grid1 = utils::elementwise_grid(lines, kSoftmaxStridedF16PackedKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    } else if (inner == 1) {
      plan.route1 = 4;  // softmax_last_dim
      plan.grid1 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    } else {
      plan.route1 = 5;  // softmax_strided
      plan.grid1 = utils::elementwise_grid(lines, kSoftmaxStridedKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"LOG", 1.0}, {"SAFE", 0.0}};
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_log_softmax_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_log_softmax(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LogSoftmaxPlan built = plan_log_softmax(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
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
    resize_log_softmax_outputs(graph, args);
    const LogSoftmaxPlan plan = plan_log_softmax(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
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

WEBGPU_REGISTER_OP(aten._log_softmax.default, webgpu_delegate::add_log_softmax, None);
