// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op sigmoid: aten.sigmoid.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/sigmoid_f16_packed_wgsl.h"
#include "ops/unary/sigmoid_f16_wgsl.h"
#include "ops/unary/sigmoid_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sigmoid";

struct SigmoidParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(SigmoidParams, num_vec4) == 0,
              "SigmoidParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(SigmoidParams) == 16, "SigmoidParams must match the WGSL struct size 16");

const KernelSource kSigmoidF16Kernel{
    "sigmoid_f16",
    kSigmoidF16WGSL,
    "main",
    {kSigmoidF16WorkgroupSizeX, kSigmoidF16WorkgroupSizeY, kSigmoidF16WorkgroupSizeZ},
    kSigmoidF16Bindings,
    kSigmoidF16BindingCount,
    kSigmoidF16Features};
const KernelSource kSigmoidF16PackedKernel{
    "sigmoid_f16_packed",
    kSigmoidF16PackedWGSL,
    "main",
    {kSigmoidF16PackedWorkgroupSizeX, kSigmoidF16PackedWorkgroupSizeY,
     kSigmoidF16PackedWorkgroupSizeZ},
    kSigmoidF16PackedBindings,
    kSigmoidF16PackedBindingCount};
const KernelSource kSigmoidKernel{
    "sigmoid",        kSigmoidWGSL,
    "main",           {kSigmoidWorkgroupSizeX, kSigmoidWorkgroupSizeY, kSigmoidWorkgroupSizeZ},
    kSigmoidBindings, kSigmoidBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kSigmoidF16Kernel, &kSigmoidF16PackedKernel,
                                                 &kSigmoidKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SigmoidPlan {
  size_t route0 = 0;
  SigmoidParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

SigmoidPlan plan_sigmoid(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  SigmoidPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // sigmoid_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSigmoidF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // sigmoid_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSigmoidF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // sigmoid
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSigmoidKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_sigmoid_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_sigmoid(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SigmoidPlan built = plan_sigmoid(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_sigmoid_outputs(graph, args);
    const SigmoidPlan plan = plan_sigmoid(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.sigmoid.default, webgpu_delegate::add_sigmoid, None);
