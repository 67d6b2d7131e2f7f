// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op sub_scalar: aten.sub.Scalar

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/scalar_arith_f16_packed_wgsl.h"
#include "ops/unary/scalar_arith_f16_wgsl.h"
#include "ops/unary/scalar_arith_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sub_scalar";

struct SubScalarParams {
  uint32_t num_vec4;
  float operand;
  uint32_t _pad0[2];
};
static_assert(offsetof(SubScalarParams, num_vec4) == 0,
              "SubScalarParams.num_vec4 must sit at WGSL offset 0");
static_assert(offsetof(SubScalarParams, operand) == 4,
              "SubScalarParams.operand must sit at WGSL offset 4");
static_assert(sizeof(SubScalarParams) == 16, "SubScalarParams must match the WGSL struct size 16");

const KernelSource kScalarArithF16Kernel{
    "scalar_arith_f16",
    kScalarArithF16WGSL,
    "main",
    {kScalarArithF16WorkgroupSizeX, kScalarArithF16WorkgroupSizeY, kScalarArithF16WorkgroupSizeZ},
    kScalarArithF16Bindings,
    kScalarArithF16BindingCount,
    kScalarArithF16Features};
const KernelSource kScalarArithF16PackedKernel{
    "scalar_arith_f16_packed",
    kScalarArithF16PackedWGSL,
    "main",
    {kScalarArithF16PackedWorkgroupSizeX, kScalarArithF16PackedWorkgroupSizeY,
     kScalarArithF16PackedWorkgroupSizeZ},
    kScalarArithF16PackedBindings,
    kScalarArithF16PackedBindingCount};
const KernelSource kScalarArithKernel{
    "scalar_arith",
    kScalarArithWGSL,
    "main",
    {kScalarArithWorkgroupSizeX, kScalarArithWorkgroupSizeY, kScalarArithWorkgroupSizeZ},
    kScalarArithBindings,
    kScalarArithBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kScalarArithF16Kernel,
                                                 &kScalarArithF16PackedKernel, &kScalarArithKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SubScalarPlan {
  size_t route0 = 0;
  SubScalarParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

SubScalarPlan plan_sub_scalar(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const double other = graph.get_scalar(args[1]);
  const double alpha = graph.is_null(args[2]) ? 1 : graph.get_scalar(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  SubScalarPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  plan.params0.operand = utils::to_f32(-(alpha * other));
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // scalar_arith_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kScalarArithF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"OP", 0.0}};
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // scalar_arith_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kScalarArithF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"OP", 0.0}};
  } else {
    plan.route0 = 2;  // scalar_arith
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kScalarArithKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"OP", 0.0}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_sub_scalar_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_sub_scalar(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SubScalarPlan built = plan_sub_scalar(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_sub_scalar_outputs(graph, args);
    const SubScalarPlan plan = plan_sub_scalar(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.sub.Scalar, webgpu_delegate::add_sub_scalar, None);
