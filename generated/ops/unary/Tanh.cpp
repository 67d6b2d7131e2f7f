// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op tanh: aten.tanh.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/tanh_f16_packed_wgsl.h"
#include "ops/unary/tanh_f16_wgsl.h"
#include "ops/unary/tanh_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "tanh";

struct TanhParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(TanhParams, num_vec4) == 0, "TanhParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(TanhParams) == 16, "TanhParams must match the WGSL struct size 16");

const KernelSource kTanhF16Kernel{
    "tanh_f16",       kTanhF16WGSL,
    "main",           {kTanhF16WorkgroupSizeX, kTanhF16WorkgroupSizeY, kTanhF16WorkgroupSizeZ},
    kTanhF16Bindings, kTanhF16BindingCount,
    kTanhF16Features};
const KernelSource kTanhF16PackedKernel{
    "tanh_f16_packed",
    kTanhF16PackedWGSL,
    "main",
    {kTanhF16PackedWorkgroupSizeX, kTanhF16PackedWorkgroupSizeY, kTanhF16PackedWorkgroupSizeZ},
    kTanhF16PackedBindings,
    kTanhF16PackedBindingCount};
const KernelSource kTanhKernel{
    "tanh",        kTanhWGSL,
    "main",        {kTanhWorkgroupSizeX, kTanhWorkgroupSizeY, kTanhWorkgroupSizeZ},
    kTanhBindings, kTanhBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kTanhF16Kernel, &kTanhF16PackedKernel,
                                                 &kTanhKernel};

// The argument values, checked and turned into what each dispatch needs.
struct TanhPlan {
  size_t route0 = 0;
  TanhParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

TanhPlan plan_tanh(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  TanhPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // tanh_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kTanhF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // tanh_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kTanhF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // tanh
    plan.grid0 =
        utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kTanhKernel.workgroup_size[0] * 4,
                                graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_tanh_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_tanh(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const TanhPlan built = plan_tanh(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_tanh_outputs(graph, args);
    const TanhPlan plan = plan_tanh(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.tanh.default, webgpu_delegate::add_tanh, None);
