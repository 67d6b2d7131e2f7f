// @generated from codegen/specs/norm/norm.py - DO NOT EDIT.
// Op layer_norm: aten.native_layer_norm.default

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

constexpr const char* kOp = "layer_norm";

struct LayerNormParams {
  uint32_t row_len;
  uint32_t num_rows;
  uint32_t inner;
  uint32_t groups;
  float eps;
  uint32_t has_weight;
  uint32_t has_bias;
  uint32_t _pad0;
};
static_assert(offsetof(LayerNormParams, row_len) == 0,
              "LayerNormParams.row_len must sit at WGSL offset 0");
static_assert(offsetof(LayerNormParams, num_rows) == 4,
              "LayerNormParams.num_rows must sit at WGSL offset 4");
static_assert(offsetof(LayerNormParams, inner) == 8,
              "LayerNormParams.inner must sit at WGSL offset 8");
static_assert(offsetof(LayerNormParams, groups) == 12,
              "LayerNormParams.groups must sit at WGSL offset 12");
static_assert(offsetof(LayerNormParams, eps) == 16,
              "LayerNormParams.eps must sit at WGSL offset 16");
static_assert(offsetof(LayerNormParams, has_weight) == 20,
              "LayerNormParams.has_weight must sit at WGSL offset 20");
static_assert(offsetof(LayerNormParams, has_bias) == 24,
              "LayerNormParams.has_bias must sit at WGSL offset 24");
static_assert(sizeof(LayerNormParams) == 32, "LayerNormParams must match the WGSL struct size 32");

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
struct LayerNormPlan {
  LayerNormParams params{};
  bool run0 = true;
  size_t route0 = 0;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

LayerNormPlan plan_layer_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& input = graph.get_tensor(args[0]);
  const std::vector<int64_t> normalized_shape =
      utils::read_int_list(graph, args[1], kOp, "normalized_shape");
  const Tensor* weight = graph.is_null(args[2]) ? nullptr : &graph.get_tensor(args[2]);
  const Tensor* bias = graph.is_null(args[3]) ? nullptr : &graph.get_tensor(args[3]);
  const double eps = utils::read_double(graph, args[4], kOp, "eps");
  const std::vector<ValueRef>& outputs = graph.get_value_list(args[5]);
  const Tensor& out = graph.get_tensor(utils::at(outputs, 0));
  const Tensor* mean =
      outputs.size() > 1 && !graph.is_null(outputs[1]) ? &graph.get_tensor(outputs[1]) : nullptr;
  const Tensor* rstd =
      outputs.size() > 2 && !graph.is_null(outputs[2]) ? &graph.get_tensor(outputs[2]) : nullptr;
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 1, 8);
  if (weight != nullptr) {
    utils::check_dtype(kOp, "weight", *weight, {DType::Float32, DType::Float16});
  }
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32, DType::Float16});
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 1, 8);
  if (mean != nullptr) {
    utils::check_dtype(kOp, "mean", *mean, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "mean", *mean, 1, 8);
  }
  if (rstd != nullptr) {
    utils::check_dtype(kOp, "rstd", *rstd, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "rstd", *rstd, 1, 8);
  }
  const int64_t k = utils::let(kOp, "k = len(normalized_shape)",
                               [&]() -> int64_t { return utils::length(normalized_shape); });
  const int64_t axis = utils::let(kOp, "axis = input.rank - k",
                                  [&]() -> int64_t { return utils::sub(input.rank(), k); });
  const int64_t row_len = utils::let(kOp, "row_len = prod(input.dims[axis:])", [&]() -> int64_t {
    return utils::prod(utils::slice(input.dims(), axis, INT64_MAX));
  });
  const int64_t num_rows = utils::let(kOp, "num_rows = prod(input.dims[:axis])", [&]() -> int64_t {
    return utils::prod(utils::slice(input.dims(), 0, axis));
  });
  if ((k < 1) || (k > input.rank())) {
    utils::fail(kOp, "normalized_shape", "does not name 1..rank trailing dims of the input",
                utils::format_value(normalized_shape),
                "1 to " + utils::format_value(input.rank()) + " sizes");
  }
  if (utils::slice(input.dims(), axis, INT64_MAX) != normalized_shape) {
    utils::fail(kOp, "normalized_shape", "does not match the input's trailing dims",
                utils::format_value(normalized_shape),
                utils::format_value(utils::slice(input.dims(), axis, INT64_MAX)));
  }
  if (row_len <= 0) {
    utils::fail(kOp, "normalized_shape", "normalizes over no elements",
                utils::format_value(normalized_shape), "non-zero sizes");
  }
  if ((weight != nullptr) && (weight->dims() != normalized_shape)) {
    utils::fail(kOp, "weight", "does not match the normalized shape",
                utils::format_value(weight->dims()), utils::format_value(normalized_shape));
  }
  if ((bias != nullptr) && (bias->dims() != normalized_shape)) {
    utils::fail(kOp, "bias", "does not match the normalized shape",
                utils::format_value(bias->dims()), utils::format_value(normalized_shape));
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
    utils::check_output_dims(kOp, "mean", *mean,
                             utils::concat(utils::slice(input.dims(), 0, axis), utils::ones(k)));
  }
  if (rstd != nullptr) {
    utils::check_output_dims(kOp, "rstd", *rstd,
                             utils::concat(utils::slice(input.dims(), 0, axis), utils::ones(k)));
  }

  LayerNormPlan plan;
  plan.params.row_len = utils::to_u32(row_len, kOp, "row_len");
  plan.params.num_rows = utils::to_u32(num_rows, kOp, "num_rows");
  plan.params.inner = utils::to_u32(1, kOp, "inner");
  plan.params.groups = utils::to_u32(1, kOp, "groups");
  plan.params.eps = utils::to_f32(eps);
  plan.params.has_weight = (weight != nullptr) ? 1 : 0;
  plan.params.has_bias = (bias != nullptr) ? 1 : 0;
  plan.run0 = (utils::floormod(row_len, 4) == 0) && true;
  if (plan.run0) {
    if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route0 = 0;  // norm_rows_vec4_f16
      plan.grid0 =
          utils::elementwise_grid(num_rows, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    } else if (input.dtype == DType::Float16) {
      plan.route0 = 1;  // norm_rows_vec4_f16_packed
      plan.grid0 =
          utils::elementwise_grid(num_rows, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    } else {
      plan.route0 = 2;  // norm_rows_vec4
      plan.grid0 =
          utils::elementwise_grid(num_rows, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    }
  }
  plan.run1 = (utils::floormod(row_len, 4) != 0) || (false && true);
  if (plan.run1) {
    if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route1 = 0;  // norm_rows_f16
      plan.grid1 =
          utils::elementwise_grid(num_rows, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    } else if (input.dtype == DType::Float16) {
      plan.route1 = 1;  // norm_rows_f16_packed
      plan.grid1 =
          utils::elementwise_grid(num_rows, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    } else {
      plan.route1 = 2;  // norm_rows
      plan.grid1 =
          utils::elementwise_grid(num_rows, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WRITE_MEAN", (mean != nullptr) ? 1.0 : 0.0},
                         {"WRITE_RSTD", (rstd != nullptr) ? 1.0 : 0.0}};
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_layer_norm_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const std::vector<int64_t> normalized_shape =
      utils::read_int_list(graph, args[1], kOp, "normalized_shape");
  const std::vector<ValueRef>& outputs = graph.get_value_list(args[5]);
  Tensor& out = graph.get_tensor(utils::at(outputs, 0));
  Tensor* mean =
      outputs.size() > 1 && !graph.is_null(outputs[1]) ? &graph.get_tensor(outputs[1]) : nullptr;
  Tensor* rstd =
      outputs.size() > 2 && !graph.is_null(outputs[2]) ? &graph.get_tensor(outputs[2]) : nullptr;
  const int64_t k = utils::let(kOp, "k = len(normalized_shape)",
                               [&]() -> int64_t { return utils::length(normalized_shape); });
  const int64_t axis = utils::let(kOp, "axis = input.rank - k",
                                  [&]() -> int64_t { return utils::sub(input.rank(), k); });
  utils::resize_output(kOp, "out", out, input.dims());
  if (mean != nullptr) {
    utils::resize_output(kOp, "mean", *mean,
                         utils::concat(utils::slice(input.dims(), 0, axis), utils::ones(k)));
  }
  if (rstd != nullptr) {
    utils::resize_output(kOp, "rstd", *rstd,
                         utils::concat(utils::slice(input.dims(), 0, axis), utils::ones(k)));
  }
}

void add_layer_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LayerNormPlan built = plan_layer_norm(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                               {Binding::params(), Binding::of(args[0]),
                                !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
                                !graph.is_null(args[3]) ? Binding::of(args[3]) : Binding::dummy(),
                                Binding::of(graph.get_value_list(args[5])[0]),
                                graph.get_value_list(args[5]).size() > 1 &&
                                        !graph.is_null(graph.get_value_list(args[5])[1])
                                    ? Binding::of(graph.get_value_list(args[5])[1])
                                    : Binding::dummy(),
                                graph.get_value_list(args[5]).size() > 2 &&
                                        !graph.is_null(graph.get_value_list(args[5])[2])
                                    ? Binding::of(graph.get_value_list(args[5])[2])
                                    : Binding::dummy()},
                               &built.params, sizeof(built.params), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                               {Binding::params(), Binding::of(args[0]),
                                !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
                                !graph.is_null(args[3]) ? Binding::of(args[3]) : Binding::dummy(),
                                Binding::of(graph.get_value_list(args[5])[0]),
                                graph.get_value_list(args[5]).size() > 1 &&
                                        !graph.is_null(graph.get_value_list(args[5])[1])
                                    ? Binding::of(graph.get_value_list(args[5])[1])
                                    : Binding::dummy(),
                                graph.get_value_list(args[5]).size() > 2 &&
                                        !graph.is_null(graph.get_value_list(args[5])[2])
                                    ? Binding::of(graph.get_value_list(args[5])[2])
                                    : Binding::dummy()},
                               &built.params, sizeof(built.params), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_layer_norm_outputs(graph, args);
    const LayerNormPlan plan = plan_layer_norm(graph, args);
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

WEBGPU_REGISTER_OP(aten.native_layer_norm.default, webgpu_delegate::add_layer_norm, None);
