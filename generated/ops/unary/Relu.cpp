// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op relu: aten.relu.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/relu_f16_packed_wgsl.h"
#include "ops/unary/relu_f16_wgsl.h"
#include "ops/unary/relu_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "relu";

struct ReluParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(ReluParams, num_vec4) == 0, "ReluParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(ReluParams) == 16, "ReluParams must match the WGSL struct size 16");

const KernelSource kReluF16Kernel{
    "relu_f16",       kReluF16WGSL,
    "main",           {kReluF16WorkgroupSizeX, kReluF16WorkgroupSizeY, kReluF16WorkgroupSizeZ},
    kReluF16Bindings, kReluF16BindingCount,
    kReluF16Features};
const KernelSource kReluF16PackedKernel{
    "relu_f16_packed",
    kReluF16PackedWGSL,
    "main",
    {kReluF16PackedWorkgroupSizeX, kReluF16PackedWorkgroupSizeY, kReluF16PackedWorkgroupSizeZ},
    kReluF16PackedBindings,
    kReluF16PackedBindingCount};
const KernelSource kReluKernel{
    "relu",        kReluWGSL,
    "main",        {kReluWorkgroupSizeX, kReluWorkgroupSizeY, kReluWorkgroupSizeZ},
    kReluBindings, kReluBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kReluF16Kernel, &kReluF16PackedKernel,
                                                 &kReluKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ReluPlan {
  size_t route0 = 0;
  ReluParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ReluPlan plan_relu(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  ReluPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // relu_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kReluF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // relu_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kReluF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // relu
    plan.grid0 =
        utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kReluKernel.workgroup_size[0] * 4,
                                graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_relu_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_relu(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ReluPlan built = plan_relu(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_relu_outputs(graph, args);
    const ReluPlan plan = plan_relu(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.relu.default, webgpu_delegate::add_relu, None);
