// @generated from codegen/specs/batch_norm/batch_norm.py - DO NOT EDIT.
// Op batch_norm: aten._native_batch_norm_legit_no_training.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/batch_norm/batch_norm_f16_packed_wgsl.h"
#include "ops/batch_norm/batch_norm_f16_wgsl.h"
#include "ops/batch_norm/batch_norm_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "batch_norm";

struct BatchNormParams {
  uint32_t C;
  uint32_t plane;
  uint32_t num_elements;
  uint32_t num_vec4;
  float eps;
  uint32_t has_weight;
  uint32_t has_bias;
  uint32_t _pad0;
};
static_assert(offsetof(BatchNormParams, C) == 0, "BatchNormParams.C must sit at WGSL offset 0");
static_assert(offsetof(BatchNormParams, plane) == 4,
              "BatchNormParams.plane must sit at WGSL offset 4");
static_assert(offsetof(BatchNormParams, num_elements) == 8,
              "BatchNormParams.num_elements must sit at WGSL offset 8");
static_assert(offsetof(BatchNormParams, num_vec4) == 12,
              "BatchNormParams.num_vec4 must sit at WGSL offset 12");
static_assert(offsetof(BatchNormParams, eps) == 16,
              "BatchNormParams.eps must sit at WGSL offset 16");
static_assert(offsetof(BatchNormParams, has_weight) == 20,
              "BatchNormParams.has_weight must sit at WGSL offset 20");
static_assert(offsetof(BatchNormParams, has_bias) == 24,
              "BatchNormParams.has_bias must sit at WGSL offset 24");
static_assert(sizeof(BatchNormParams) == 32, "BatchNormParams must match the WGSL struct size 32");

const KernelSource kBatchNormF16Kernel{
    "batch_norm_f16",
    kBatchNormF16WGSL,
    "main",
    {kBatchNormF16WorkgroupSizeX, kBatchNormF16WorkgroupSizeY, kBatchNormF16WorkgroupSizeZ},
    kBatchNormF16Bindings,
    kBatchNormF16BindingCount,
    kBatchNormF16Features};
const KernelSource kBatchNormF16PackedKernel{
    "batch_norm_f16_packed",
    kBatchNormF16PackedWGSL,
    "main",
    {kBatchNormF16PackedWorkgroupSizeX, kBatchNormF16PackedWorkgroupSizeY,
     kBatchNormF16PackedWorkgroupSizeZ},
    kBatchNormF16PackedBindings,
    kBatchNormF16PackedBindingCount};
const KernelSource kBatchNormKernel{
    "batch_norm",
    kBatchNormWGSL,
    "main",
    {kBatchNormWorkgroupSizeX, kBatchNormWorkgroupSizeY, kBatchNormWorkgroupSizeZ},
    kBatchNormBindings,
    kBatchNormBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kBatchNormF16Kernel, &kBatchNormF16PackedKernel,
                                                 &kBatchNormKernel};

// The argument values, checked and turned into what each dispatch needs.
struct BatchNormPlan {
  size_t route0 = 0;
  BatchNormParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

BatchNormPlan plan_batch_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 8);
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor* weight = graph.is_null(args[1]) ? nullptr : &graph.get_tensor(args[1]);
  const Tensor* bias = graph.is_null(args[2]) ? nullptr : &graph.get_tensor(args[2]);
  const Tensor& running_mean = graph.get_tensor(args[3]);
  const Tensor& running_var = graph.get_tensor(args[4]);
  const double eps = utils::read_double(graph, args[6], kOp, "eps");
  const std::vector<ValueRef>& outputs = graph.get_value_list(args[7]);
  const Tensor& out = graph.get_tensor(utils::at(outputs, 0));
  const Tensor* save_mean =
      outputs.size() > 1 && !graph.is_null(outputs[1]) ? &graph.get_tensor(outputs[1]) : nullptr;
  const Tensor* save_invstd =
      outputs.size() > 2 && !graph.is_null(outputs[2]) ? &graph.get_tensor(outputs[2]) : nullptr;
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 2, 5);
  if (weight != nullptr) {
    utils::check_dtype(kOp, "weight", *weight, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "weight", *weight, 1, 1);
  }
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "running_mean", running_mean, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "running_mean", running_mean, 1, 1);
  utils::check_dtype(kOp, "running_var", running_var, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "running_var", running_var, 1, 1);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 2, 5);
  if (save_mean != nullptr) {
    utils::check_dtype(kOp, "save_mean", *save_mean, {DType::Float32, DType::Float16});
  }
  if (save_invstd != nullptr) {
    utils::check_dtype(kOp, "save_invstd", *save_invstd, {DType::Float32, DType::Float16});
  }
  const int64_t C = utils::let(kOp, "C = input.dims[1]", [&]() -> int64_t { return input.dim(1); });
  if (running_mean.numel() != C) {
    utils::fail(kOp, "running_mean", "does not hold one value per channel",
                utils::format_value(running_mean.dims()), utils::format_value(C) + " values");
  }
  if (running_var.numel() != C) {
    utils::fail(kOp, "running_var", "does not hold one value per channel",
                utils::format_value(running_var.dims()), utils::format_value(C) + " values");
  }
  if ((weight != nullptr) && (weight->numel() != C)) {
    utils::fail(kOp, "weight", "does not hold one value per channel",
                utils::format_value(weight->dims()), utils::format_value(C) + " values");
  }
  if ((bias != nullptr) && (bias->numel() != C)) {
    utils::fail(kOp, "bias", "does not hold one value per channel",
                utils::format_value(bias->dims()), utils::format_value(C) + " values");
  }
  if ((running_mean.dtype != input.dtype) || (running_var.dtype != input.dtype) ||
      ((weight != nullptr) && (weight->dtype != input.dtype)) ||
      ((bias != nullptr) && (bias->dtype != input.dtype))) {
    utils::fail(kOp, "input",
                "does not share its dtype with running_mean, running_var, weight and bias",
                utils::format_value(input.dtype),
                "the dtype of running_mean, running_var, weight and bias");
  }
  utils::check_output_dims(kOp, "out", out, input.dims());

  BatchNormPlan plan;
  plan.params0.C = utils::to_u32(C, kOp, "C");
  plan.params0.plane =
      utils::to_u32(utils::prod(utils::slice(input.dims(), 2, INT64_MAX)), kOp, "plane");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  plan.params0.eps = utils::to_f32(eps);
  plan.params0.has_weight = (weight != nullptr) ? 1 : 0;
  plan.params0.has_bias = (bias != nullptr) ? 1 : 0;
  if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
    plan.route0 = 0;  // batch_norm_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kBatchNormF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (input.dtype == DType::Float16) {
    plan.route0 = 1;  // batch_norm_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kBatchNormF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // batch_norm
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kBatchNormKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_batch_norm_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const std::vector<ValueRef>& outputs = graph.get_value_list(args[7]);
  Tensor& out = graph.get_tensor(utils::at(outputs, 0));
  utils::resize_output(kOp, "out", out, input.dims());
}

void add_batch_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const BatchNormPlan built = plan_batch_norm(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]),
       !graph.is_null(args[1]) ? Binding::of(args[1]) : Binding::dummy(),
       !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(), Binding::of(args[3]),
       Binding::of(args[4]), Binding::of(graph.get_value_list(args[7])[0])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_batch_norm_outputs(graph, args);
    const BatchNormPlan plan = plan_batch_norm(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten._native_batch_norm_legit_no_training.default,
                   webgpu_delegate::add_batch_norm, None);
