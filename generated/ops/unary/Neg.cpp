// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op neg: aten.neg.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/neg_f16_packed_wgsl.h"
#include "ops/unary/neg_f16_wgsl.h"
#include "ops/unary/neg_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "neg";

struct NegParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(NegParams, num_vec4) == 0, "NegParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(NegParams) == 16, "NegParams must match the WGSL struct size 16");

const KernelSource kNegF16Kernel{
    "neg_f16",       kNegF16WGSL,
    "main",          {kNegF16WorkgroupSizeX, kNegF16WorkgroupSizeY, kNegF16WorkgroupSizeZ},
    kNegF16Bindings, kNegF16BindingCount,
    kNegF16Features};
const KernelSource kNegF16PackedKernel{
    "neg_f16_packed",
    kNegF16PackedWGSL,
    "main",
    {kNegF16PackedWorkgroupSizeX, kNegF16PackedWorkgroupSizeY, kNegF16PackedWorkgroupSizeZ},
    kNegF16PackedBindings,
    kNegF16PackedBindingCount};
const KernelSource kNegKernel{
    "neg",        kNegWGSL,
    "main",       {kNegWorkgroupSizeX, kNegWorkgroupSizeY, kNegWorkgroupSizeZ},
    kNegBindings, kNegBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kNegF16Kernel, &kNegF16PackedKernel, &kNegKernel};

// The argument values, checked and turned into what each dispatch needs.
struct NegPlan {
  size_t route0 = 0;
  NegParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

NegPlan plan_neg(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  NegPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // neg_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kNegF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // neg_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kNegF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // neg
    plan.grid0 =
        utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kNegKernel.workgroup_size[0] * 4,
                                graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_neg_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_neg(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const NegPlan built = plan_neg(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_neg_outputs(graph, args);
    const NegPlan plan = plan_neg(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.neg.default, webgpu_delegate::add_neg, None);
