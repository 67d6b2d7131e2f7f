// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op exp: aten.exp.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/exp_f16_packed_wgsl.h"
#include "ops/unary/exp_f16_wgsl.h"
#include "ops/unary/exp_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "exp";

struct ExpParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(ExpParams, num_vec4) == 0, "ExpParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(ExpParams) == 16, "ExpParams must match the WGSL struct size 16");

const KernelSource kExpF16Kernel{
    "exp_f16",       kExpF16WGSL,
    "main",          {kExpF16WorkgroupSizeX, kExpF16WorkgroupSizeY, kExpF16WorkgroupSizeZ},
    kExpF16Bindings, kExpF16BindingCount,
    kExpF16Features};
const KernelSource kExpF16PackedKernel{
    "exp_f16_packed",
    kExpF16PackedWGSL,
    "main",
    {kExpF16PackedWorkgroupSizeX, kExpF16PackedWorkgroupSizeY, kExpF16PackedWorkgroupSizeZ},
    kExpF16PackedBindings,
    kExpF16PackedBindingCount};
const KernelSource kExpKernel{
    "exp",        kExpWGSL,
    "main",       {kExpWorkgroupSizeX, kExpWorkgroupSizeY, kExpWorkgroupSizeZ},
    kExpBindings, kExpBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kExpF16Kernel, &kExpF16PackedKernel, &kExpKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ExpPlan {
  size_t route0 = 0;
  ExpParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ExpPlan plan_exp(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  ExpPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // exp_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kExpF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // exp_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kExpF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // exp
    plan.grid0 =
        utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kExpKernel.workgroup_size[0] * 4,
                                graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_exp_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_exp(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ExpPlan built = plan_exp(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_exp_outputs(graph, args);
    const ExpPlan plan = plan_exp(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.exp.default, webgpu_delegate::add_exp, None);
