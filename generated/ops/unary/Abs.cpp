// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op abs: aten.abs.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/abs_f16_packed_wgsl.h"
#include "ops/unary/abs_f16_wgsl.h"
#include "ops/unary/abs_i32_wgsl.h"
#include "ops/unary/abs_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "abs";

struct AbsFloat32Params {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(AbsFloat32Params, num_vec4) == 0,
              "AbsFloat32Params.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(AbsFloat32Params) == 16,
              "AbsFloat32Params must match the WGSL struct size 16");

struct AbsInt32Params {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(AbsInt32Params, num_vec4) == 0,
              "AbsInt32Params.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(AbsInt32Params) == 16, "AbsInt32Params must match the WGSL struct size 16");

const KernelSource kAbsF16Kernel{
    "abs_f16",       kAbsF16WGSL,
    "main",          {kAbsF16WorkgroupSizeX, kAbsF16WorkgroupSizeY, kAbsF16WorkgroupSizeZ},
    kAbsF16Bindings, kAbsF16BindingCount,
    kAbsF16Features};
const KernelSource kAbsF16PackedKernel{
    "abs_f16_packed",
    kAbsF16PackedWGSL,
    "main",
    {kAbsF16PackedWorkgroupSizeX, kAbsF16PackedWorkgroupSizeY, kAbsF16PackedWorkgroupSizeZ},
    kAbsF16PackedBindings,
    kAbsF16PackedBindingCount};
const KernelSource kAbsKernel{
    "abs",        kAbsWGSL,
    "main",       {kAbsWorkgroupSizeX, kAbsWorkgroupSizeY, kAbsWorkgroupSizeZ},
    kAbsBindings, kAbsBindingCount};
const KernelSource kAbsI32Kernel{
    "abs_i32",       kAbsI32WGSL,
    "main",          {kAbsI32WorkgroupSizeX, kAbsI32WorkgroupSizeY, kAbsI32WorkgroupSizeZ},
    kAbsI32Bindings, kAbsI32BindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kAbsF16Kernel, &kAbsF16PackedKernel, &kAbsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct AbsPlan {
  bool run0 = true;
  size_t route0 = 0;
  AbsFloat32Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  AbsInt32Params params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

AbsPlan plan_abs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_output_dims(kOp, "out", out, self.dims());

  AbsPlan plan;
  plan.run0 = self.dtype != DType::Int32;
  if (plan.run0) {
    plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route0 = 0;  // abs_f16
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kAbsF16Kernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    } else if (self.dtype == DType::Float16) {
      plan.route0 = 1;  // abs_f16_packed
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kAbsF16PackedKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route0 = 2;  // abs
      plan.grid0 =
          utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kAbsKernel.workgroup_size[0] * 4,
                                  graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run1 = self.dtype == DType::Int32;
  if (plan.run1) {
    plan.params1.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kAbsI32Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_abs_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_abs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AbsPlan built = plan_abs(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                               &built.params0, sizeof(built.params0), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(kAbsI32Kernel, built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                               &built.params1, sizeof(built.params1), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_abs_outputs(graph, args);
    const AbsPlan plan = plan_abs(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.abs.default, webgpu_delegate::add_abs, None);
