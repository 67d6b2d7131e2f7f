// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op pow: aten.pow.Tensor_Scalar

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/pow_scalar_f16_packed_wgsl.h"
#include "ops/unary/pow_scalar_f16_wgsl.h"
#include "ops/unary/pow_scalar_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "pow";

struct PowParams {
  uint32_t num_vec4;
  float exponent;
  uint32_t _pad0[2];
};
static_assert(offsetof(PowParams, num_vec4) == 0, "PowParams.num_vec4 must sit at WGSL offset 0");
static_assert(offsetof(PowParams, exponent) == 4, "PowParams.exponent must sit at WGSL offset 4");
static_assert(sizeof(PowParams) == 16, "PowParams must match the WGSL struct size 16");

const KernelSource kPowScalarF16Kernel{
    "pow_scalar_f16",
    kPowScalarF16WGSL,
    "main",
    {kPowScalarF16WorkgroupSizeX, kPowScalarF16WorkgroupSizeY, kPowScalarF16WorkgroupSizeZ},
    kPowScalarF16Bindings,
    kPowScalarF16BindingCount,
    kPowScalarF16Features};
const KernelSource kPowScalarF16PackedKernel{
    "pow_scalar_f16_packed",
    kPowScalarF16PackedWGSL,
    "main",
    {kPowScalarF16PackedWorkgroupSizeX, kPowScalarF16PackedWorkgroupSizeY,
     kPowScalarF16PackedWorkgroupSizeZ},
    kPowScalarF16PackedBindings,
    kPowScalarF16PackedBindingCount};
const KernelSource kPowScalarKernel{
    "pow_scalar",
    kPowScalarWGSL,
    "main",
    {kPowScalarWorkgroupSizeX, kPowScalarWorkgroupSizeY, kPowScalarWorkgroupSizeZ},
    kPowScalarBindings,
    kPowScalarBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kPowScalarF16Kernel, &kPowScalarF16PackedKernel,
                                                 &kPowScalarKernel};

// The argument values, checked and turned into what each dispatch needs.
struct PowPlan {
  size_t route0 = 0;
  PowParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

PowPlan plan_pow(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const double exponent = graph.get_scalar(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  PowPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  plan.params0.exponent = utils::to_f32(exponent);
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // pow_scalar_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kPowScalarF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // pow_scalar_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kPowScalarF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // pow_scalar
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kPowScalarKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_pow_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_pow(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const PowPlan built = plan_pow(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_pow_outputs(graph, args);
    const PowPlan plan = plan_pow(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.pow.Tensor_Scalar, webgpu_delegate::add_pow, None);
