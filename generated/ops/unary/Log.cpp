// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op log: aten.log.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/log_f16_packed_wgsl.h"
#include "ops/unary/log_f16_wgsl.h"
#include "ops/unary/log_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "log";

struct LogParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(LogParams, num_vec4) == 0, "LogParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(LogParams) == 16, "LogParams must match the WGSL struct size 16");

const KernelSource kLogF16Kernel{
    "log_f16",       kLogF16WGSL,
    "main",          {kLogF16WorkgroupSizeX, kLogF16WorkgroupSizeY, kLogF16WorkgroupSizeZ},
    kLogF16Bindings, kLogF16BindingCount,
    kLogF16Features};
const KernelSource kLogF16PackedKernel{
    "log_f16_packed",
    kLogF16PackedWGSL,
    "main",
    {kLogF16PackedWorkgroupSizeX, kLogF16PackedWorkgroupSizeY, kLogF16PackedWorkgroupSizeZ},
    kLogF16PackedBindings,
    kLogF16PackedBindingCount};
const KernelSource kLogKernel{
    "log",        kLogWGSL,
    "main",       {kLogWorkgroupSizeX, kLogWorkgroupSizeY, kLogWorkgroupSizeZ},
    kLogBindings, kLogBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kLogF16Kernel, &kLogF16PackedKernel, &kLogKernel};

// The argument values, checked and turned into what each dispatch needs.
struct LogPlan {
  size_t route0 = 0;
  LogParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

LogPlan plan_log(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  LogPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // log_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kLogF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // log_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kLogF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // log
    plan.grid0 =
        utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kLogKernel.workgroup_size[0] * 4,
                                graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_log_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_log(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LogPlan built = plan_log(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_log_outputs(graph, args);
    const LogPlan plan = plan_log(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.log.default, webgpu_delegate::add_log, None);
