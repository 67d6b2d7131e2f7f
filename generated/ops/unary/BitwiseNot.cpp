// @generated from codegen/specs/unary/rounding.py - DO NOT EDIT.
// Op bitwise_not: aten.bitwise_not.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/bitwise_not_bool_wgsl.h"
#include "ops/unary/bitwise_not_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "bitwise_not";

struct BitwiseNotInt32Params {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(BitwiseNotInt32Params, num_vec4) == 0,
              "BitwiseNotInt32Params.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(BitwiseNotInt32Params) == 16,
              "BitwiseNotInt32Params must match the WGSL struct size 16");

struct BitwiseNotBoolParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(BitwiseNotBoolParams, num_vec4) == 0,
              "BitwiseNotBoolParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(BitwiseNotBoolParams) == 16,
              "BitwiseNotBoolParams must match the WGSL struct size 16");

const KernelSource kBitwiseNotKernel{
    "bitwise_not",
    kBitwiseNotWGSL,
    "main",
    {kBitwiseNotWorkgroupSizeX, kBitwiseNotWorkgroupSizeY, kBitwiseNotWorkgroupSizeZ},
    kBitwiseNotBindings,
    kBitwiseNotBindingCount};
const KernelSource kBitwiseNotBoolKernel{
    "bitwise_not_bool",
    kBitwiseNotBoolWGSL,
    "main",
    {kBitwiseNotBoolWorkgroupSizeX, kBitwiseNotBoolWorkgroupSizeY, kBitwiseNotBoolWorkgroupSizeZ},
    kBitwiseNotBoolBindings,
    kBitwiseNotBoolBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct BitwiseNotPlan {
  bool run0 = true;
  BitwiseNotInt32Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  BitwiseNotBoolParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

BitwiseNotPlan plan_bitwise_not(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Int32, DType::Bool});
  utils::check_output_dims(kOp, "out", out, self.dims());

  BitwiseNotPlan plan;
  plan.run0 = self.dtype == DType::Int32;
  if (plan.run0) {
    plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kBitwiseNotKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.run1 = self.dtype == DType::Bool;
  if (plan.run1) {
    plan.params1.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 16), kOp, "num_vec4");
    plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 16),
                                         kBitwiseNotBoolKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_bitwise_not_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_bitwise_not(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const BitwiseNotPlan built = plan_bitwise_not(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(kBitwiseNotKernel, built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                               &built.params0, sizeof(built.params0), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(kBitwiseNotBoolKernel, built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                               &built.params1, sizeof(built.params1), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_bitwise_not_outputs(graph, args);
    const BitwiseNotPlan plan = plan_bitwise_not(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
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

WEBGPU_REGISTER_OP(aten.bitwise_not.default, webgpu_delegate::add_bitwise_not, None);
