// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op sin: aten.sin.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/sin_cos_f16_packed_wgsl.h"
#include "ops/unary/sin_cos_f16_wgsl.h"
#include "ops/unary/sin_cos_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sin";

struct SinParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(SinParams, num_vec4) == 0, "SinParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(SinParams) == 16, "SinParams must match the WGSL struct size 16");

const KernelSource kSinCosF16Kernel{
    "sin_cos_f16",
    kSinCosF16WGSL,
    "main",
    {kSinCosF16WorkgroupSizeX, kSinCosF16WorkgroupSizeY, kSinCosF16WorkgroupSizeZ},
    kSinCosF16Bindings,
    kSinCosF16BindingCount,
    kSinCosF16Features};
const KernelSource kSinCosF16PackedKernel{
    "sin_cos_f16_packed",
    kSinCosF16PackedWGSL,
    "main",
    {kSinCosF16PackedWorkgroupSizeX, kSinCosF16PackedWorkgroupSizeY,
     kSinCosF16PackedWorkgroupSizeZ},
    kSinCosF16PackedBindings,
    kSinCosF16PackedBindingCount};
const KernelSource kSinCosKernel{
    "sin_cos",       kSinCosWGSL,
    "main",          {kSinCosWorkgroupSizeX, kSinCosWorkgroupSizeY, kSinCosWorkgroupSizeZ},
    kSinCosBindings, kSinCosBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kSinCosF16Kernel, &kSinCosF16PackedKernel,
                                                 &kSinCosKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SinPlan {
  size_t route0 = 0;
  SinParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

SinPlan plan_sin(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  SinPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // sin_cos_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSinCosF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"QUADRANT", 0.0}};
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // sin_cos_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSinCosF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"QUADRANT", 0.0}};
  } else {
    plan.route0 = 2;  // sin_cos
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSinCosKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"QUADRANT", 0.0}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_sin_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_sin(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SinPlan built = plan_sin(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_sin_outputs(graph, args);
    const SinPlan plan = plan_sin(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.sin.default, webgpu_delegate::add_sin, None);
