// @generated from codegen/specs/norm/norm.py - DO NOT EDIT.
// Op group_norm: aten.native_group_norm.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/norm/norm_rows_f16_packed_wgsl.h"
#include "ops/norm/norm_rows_f16_wgsl.h"
#include "ops/norm/norm_rows_vec4_f16_packed_wgsl.h"
#include "ops/norm/norm_rows_vec4_f16_wgsl.h"
#include "ops/norm/norm_rows_vec4_wgsl.h"
#include "ops/norm/norm_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "group_norm";

struct GroupNormParams {
  uint32_t row_len;
  uint32_t num_rows;
  uint32_t inner;
  uint32_t groups;
  float eps;
  uint32_t has_weight;
  uint32_t has_bias;
  uint32_t _pad0;
};
static_assert(offsetof(GroupNormParams, row_len) == 0,
              "GroupNormParams.row_len must sit at WGSL offset 0");
static_assert(offsetof(GroupNormParams, num_rows) == 4,
              "GroupNormParams.num_rows must sit at WGSL offset 4");
static_assert(offsetof(GroupNormParams, inner) == 8,
              "GroupNormParams.inner must sit at WGSL offset 8");
static_assert(offsetof(GroupNormParams, groups) == 12,
              "GroupNormParams.groups must sit at WGSL offset 12");
static_assert(offsetof(GroupNormParams, eps) == 16,
              "GroupNormParams.eps must sit at WGSL offset 16");
static_assert(offsetof(GroupNormParams, has_weight) == 20,
              "GroupNormParams.has_weight must sit at WGSL offset 20");
static_assert(offsetof(GroupNormParams, has_bias) == 24,
              "GroupNormParams.has_bias must sit at WGSL offset 24");
static_assert(sizeof(GroupNormParams) == 32, "GroupNormParams must match the WGSL struct size 32");

const KernelSource kNormRowsVec4F16Kernel{
    "norm_rows_vec4_f16",
    kNormRowsVec4F16WGSL,
    "main",
    {kNormRowsVec4F16WorkgroupSizeX, kNormRowsVec4F16WorkgroupSizeY,
     kNormRowsVec4F16WorkgroupSizeZ},
    kNormRowsVec4F16Bindings,
    kNormRowsVec4F16BindingCount,
    kNormRowsVec4F16Features};
const KernelSource kNormRowsVec4F16PackedKernel{
    "norm_rows_vec4_f16_packed",
    kNormRowsVec4F16PackedWGSL,
    "main",
    {kNormRowsVec4F16PackedWorkgroupSizeX, kNormRowsVec4F16PackedWorkgroupSizeY,
     kNormRowsVec4F16PackedWorkgroupSizeZ},
    kNormRowsVec4F16PackedBindings,
    kNormRowsVec4F16PackedBindingCount};
const KernelSource kNormRowsVec4Kernel{
    "norm_rows_vec4",
    kNormRowsVec4WGSL,
    "main",
    {kNormRowsVec4WorkgroupSizeX, kNormRowsVec4WorkgroupSizeY, kNormRowsVec4WorkgroupSizeZ},
    kNormRowsVec4Bindings,
    kNormRowsVec4BindingCount};
const KernelSource kNormRowsF16Kernel{
    "norm_rows_f16",
    kNormRowsF16WGSL,
    "main",
    {kNormRowsF16WorkgroupSizeX, kNormRowsF16WorkgroupSizeY, kNormRowsF16WorkgroupSizeZ},
    kNormRowsF16Bindings,
    kNormRowsF16BindingCount,
    kNormRowsF16Features};
const KernelSource kNormRowsF16PackedKernel{
    "norm_rows_f16_packed",
    kNormRowsF16PackedWGSL,
    "main",
    {kNormRowsF16PackedWorkgroupSizeX, kNormRowsF16PackedWorkgroupSizeY,
     kNormRowsF16PackedWorkgroupSizeZ},
    kNormRowsF16PackedBindings,
    kNormRowsF16PackedBindingCount};
const KernelSource kNormRowsKernel{
    "norm_rows",
    kNormRowsWGSL,
    "main",
    {kNormRowsWorkgroupSizeX, kNormRowsWorkgroupSizeY, kNormRowsWorkgroupSizeZ},
    kNormRowsBindings,
    kNormRowsBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kNormRowsVec4F16Kernel, &kNormRowsVec4F16PackedKernel, &kNormRowsVec4Kernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kNormRowsF16Kernel, &kNormRowsF16PackedKernel,
                                                 &kNormRowsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct GroupNormPlan {
  GroupNormParams params{};
  bool run0 = true;
  size_t route0 = 0;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

GroupNormPlan plan_group_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 9);
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor* weight = graph.is_null(args[1]) ? nullptr : &graph.get_tensor(args[1]);
  const Tensor* bias = graph.is_null(args[2]) ? nullptr : &graph.get_tensor(args[2]);
  const int64_t N = utils::read_int(graph, args[3], kOp, "N", true);
  const int64_t C = utils::read_int(graph, args[4], kOp, "C", true);
  const int64_t HxW = utils::read_int(graph, args[5], kOp, "HxW", true);
  const int64_t group = utils::read_int(graph, args[6], kOp, "group", false);
  const double eps = utils::read_double(graph, args[7], kOp, "eps");
  const std::vector<ValueRef>& outputs = graph.get_value_list(args[8]);
  const Tensor& out = graph.get_tensor(utils::at(outputs, 0));
  const Tensor* mean =
      outputs.size() > 1 && !graph.is_null(outputs[1]) ? &graph.get_tensor(outputs[1]) : nullptr;
  const Tensor* rstd =
      outputs.size() > 2 && !graph.is_null(outputs[2]) ? &graph.get_tensor(outputs[2]) : nullptr;
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 2, 8);
  if (weight != nullptr) {
    utils::check_dtype(kOp, "weight", *weight, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "weight", *weight, 1, 1);
  }
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 2, 8);
  if (mean != nullptr) {
    utils::check_dtype(kOp, "mean", *mean, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "mean", *mean, 2, 8);
  }
  if (rstd != nullptr) {
    utils::check_dtype(kOp, "rstd", *rstd, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "rstd", *rstd, 2, 8);
  }
  const int64_t channels =
      utils::let(kOp, "channels = C // group if group > 0 else 0",
                 [&]() -> int64_t { return (group > 0) ? utils::floordiv(C, group) : 0; });
  if ((input.dim(0) != N) || (input.dim(1) != C) ||
      (input.numel() != utils::mul(utils::mul(N, C), HxW))) {
    utils::fail(kOp, "input", "does not match N, C and HxW", utils::format_value(input.dims()),
                "[" + utils::format_value(N) + ", " + utils::format_value(C) + ", ...] with " +
                    utils::format_value(utils::mul(utils::mul(N, C), HxW)) + " elements");
  }
  if ((group <= 0) || (utils::floormod(C, group) != 0)) {
    utils::fail(kOp, "group", "does not divide the channels", utils::format_value(group),
                "a divisor of " + utils::format_value(C));
  }
  if (HxW <= 0) {
    utils::fail(kOp, "HxW", "is not positive", utils::format_value(HxW), "at least 1");
  }
  if ((weight != nullptr) && (weight->dim(0) != C)) {
    utils::fail(kOp, "weight", "does not match the normalized shape",
                utils::format_value(weight->dims()), "[" + utils::format_value(C) + "]");
  }
  if ((bias != nullptr) && (bias->dim(0) != C)) {
    utils::fail(kOp, "bias", "does not match the normalized shape",
                utils::format_value(bias->dims()), "[" + utils::format_value(C) + "]");
  }
  if (((weight != nullptr) && (weight->dtype != input.dtype)) ||
      ((bias != nullptr) && (bias->dtype != input.dtype)) ||
      ((mean != nullptr) && (mean->dtype != input.dtype)) ||
      ((rstd != nullptr) && (rstd->dtype != input.dtype))) {
    utils::fail(kOp, "input", "does not share its dtype with weight, bias, mean and rstd",
                utils::format_value(input.dtype), "the dtype of weight, bias, mean and rstd");
  }
  utils::check_output_dims(kOp, "out", out, input.dims());
  if (mean != nullptr) {
    utils::check_output_dims(kOp, "mean", *mean, std::vector<int64_t>{N, group});
  }
  if (rstd != nullptr) {
    utils::check_output_dims(kOp, "rstd", *rstd, std::vector<int64_t>{N, group});
  }

  GroupNormPlan plan;
  plan.params.row_len = utils::to_u32(utils::mul(channels, HxW), kOp, "row_len");
  plan.params.num_rows = utils::to_u32(utils::mul(N, group), kOp, "num_rows");
  plan.params.inner = utils::to_u32(HxW, kOp, "inner");
  plan.params.groups = utils::to_u32(group, kOp, "groups");
  plan.params.eps = utils::to_f32(eps);
  plan.params.has_weight = (weight != nullptr) ? 1 : 0;
  plan.params.has_bias = (bias != nullptr) ? 1 : 0;
  plan.run0 = (utils::floormod(utils::mul(channels, HxW), 4) == 0) &&
              ((HxW == 1) || (utils::floormod(HxW, 4) == 0));
  if (plan.run0) {
    if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route0 = 0;  // norm_rows_vec4_f16
      plan.grid0 = utils::elementwise_grid(utils::mul(N, group), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    } else if (input.dtype == DType::Float16) {
      plan.route0 = 1;  // norm_rows_vec4_f16_packed
      plan.grid0 = utils::elementwise_grid(utils::mul(N, group), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    } else {
      plan.route0 = 2;  // norm_rows_vec4
      plan.grid0 = utils::elementwise_grid(utils::mul(N, group), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    }
  }
  plan.run1 = (utils::floormod(utils::mul(channels, HxW), 4) != 0) ||
              ((HxW != 1) && (utils::floormod(HxW, 4) != 0));
  if (plan.run1) {
    if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route1 = 0;  // norm_rows_f16
      plan.grid1 = utils::elementwise_grid(utils::mul(N, group), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    } else if (input.dtype == DType::Float16) {
      plan.route1 = 1;  // norm_rows_f16_packed
      plan.grid1 = utils::elementwise_grid(utils::mul(N, group), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    } else {
      plan.route1 = 2;  // norm_rows
      plan.grid1 = utils::elementwise_grid(utils::mul(N, group), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_group_norm_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const int64_t N = utils::read_int(graph, args[3], kOp, "N", true);
  const int64_t group = utils::read_int(graph, args[6], kOp, "group", false);
  const std::vector<ValueRef>& outputs = graph.get_value_list(args[8]);
  Tensor& out = graph.get_tensor(utils::at(outputs, 0));
  Tensor* mean =
      outputs.size() > 1 && !graph.is_null(outputs[1]) ? &graph.get_tensor(outputs[1]) : nullptr;
  Tensor* rstd =
      outputs.size() > 2 && !graph.is_null(outputs[2]) ? &graph.get_tensor(outputs[2]) : nullptr;
  utils::resize_output(kOp, "out", out, input.dims());
  if (mean != nullptr) {
    utils::resize_output(kOp, "mean", *mean, std::vector<int64_t>{N, group});
  }
  if (rstd != nullptr) {
    utils::resize_output(kOp, "rstd", *rstd, std::vector<int64_t>{N, group});
  }
}

void add_group_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const GroupNormPlan built = plan_group_norm(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                               {Binding::params(), Binding::of(args[0]),
                                !graph.is_null(args[1]) ? Binding::of(args[1]) : Binding::dummy(),
                                !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
                                Binding::of(graph.get_value_list(args[8])[0]),
                                graph.get_value_list(args[8]).size() > 1 &&
                                        !graph.is_null(graph.get_value_list(args[8])[1])
                                    ? Binding::of(graph.get_value_list(args[8])[1])
                                    : Binding::dummy(),
                                graph.get_value_list(args[8]).size() > 2 &&
                                        !graph.is_null(graph.get_value_list(args[8])[2])
                                    ? Binding::of(graph.get_value_list(args[8])[2])
                                    : Binding::dummy()},
                               &built.params, sizeof(built.params), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                               {Binding::params(), Binding::of(args[0]),
                                !graph.is_null(args[1]) ? Binding::of(args[1]) : Binding::dummy(),
                                !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
                                Binding::of(graph.get_value_list(args[8])[0]),
                                graph.get_value_list(args[8]).size() > 1 &&
                                        !graph.is_null(graph.get_value_list(args[8])[1])
                                    ? Binding::of(graph.get_value_list(args[8])[1])
                                    : Binding::dummy(),
                                graph.get_value_list(args[8]).size() > 2 &&
                                        !graph.is_null(graph.get_value_list(args[8])[2])
                                    ? Binding::of(graph.get_value_list(args[8])[2])
                                    : Binding::dummy()},
                               &built.params, sizeof(built.params), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_group_norm_outputs(graph, args);
    const GroupNormPlan plan = plan_group_norm(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params, sizeof(plan.params), plan.grid0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params, sizeof(plan.params), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.native_group_norm.default, webgpu_delegate::add_group_norm, None);
