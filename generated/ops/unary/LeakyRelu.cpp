// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op leaky_relu: aten.leaky_relu.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/leaky_relu_f16_packed_wgsl.h"
#include "ops/unary/leaky_relu_f16_wgsl.h"
#include "ops/unary/leaky_relu_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "leaky_relu";

struct LeakyReluParams {
  uint32_t num_vec4;
  float negative_slope;
  uint32_t _pad0[2];
};
static_assert(offsetof(LeakyReluParams, num_vec4) == 0,
              "LeakyReluParams.num_vec4 must sit at WGSL offset 0");
static_assert(offsetof(LeakyReluParams, negative_slope) == 4,
              "LeakyReluParams.negative_slope must sit at WGSL offset 4");
static_assert(sizeof(LeakyReluParams) == 16, "LeakyReluParams must match the WGSL struct size 16");

const KernelSource kLeakyReluF16Kernel{
    "leaky_relu_f16",
    kLeakyReluF16WGSL,
    "main",
    {kLeakyReluF16WorkgroupSizeX, kLeakyReluF16WorkgroupSizeY, kLeakyReluF16WorkgroupSizeZ},
    kLeakyReluF16Bindings,
    kLeakyReluF16BindingCount,
    kLeakyReluF16Features};
const KernelSource kLeakyReluF16PackedKernel{
    "leaky_relu_f16_packed",
    kLeakyReluF16PackedWGSL,
    "main",
    {kLeakyReluF16PackedWorkgroupSizeX, kLeakyReluF16PackedWorkgroupSizeY,
     kLeakyReluF16PackedWorkgroupSizeZ},
    kLeakyReluF16PackedBindings,
    kLeakyReluF16PackedBindingCount};
const KernelSource kLeakyReluKernel{
    "leaky_relu",
    kLeakyReluWGSL,
    "main",
    {kLeakyReluWorkgroupSizeX, kLeakyReluWorkgroupSizeY, kLeakyReluWorkgroupSizeZ},
    kLeakyReluBindings,
    kLeakyReluBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kLeakyReluF16Kernel, &kLeakyReluF16PackedKernel,
                                                 &kLeakyReluKernel};

// The argument values, checked and turned into what each dispatch needs.
struct LeakyReluPlan {
  size_t route0 = 0;
  LeakyReluParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

LeakyReluPlan plan_leaky_relu(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const double negative_slope = graph.get_scalar(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  LeakyReluPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  plan.params0.negative_slope = utils::to_f32(negative_slope);
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // leaky_relu_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kLeakyReluF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // leaky_relu_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kLeakyReluF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // leaky_relu
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kLeakyReluKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_leaky_relu_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_leaky_relu(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LeakyReluPlan built = plan_leaky_relu(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_leaky_relu_outputs(graph, args);
    const LeakyReluPlan plan = plan_leaky_relu(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.leaky_relu.default, webgpu_delegate::add_leaky_relu, None);
