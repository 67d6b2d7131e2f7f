// @generated from codegen/specs/add_rms_norm/add_rms_norm.py - DO NOT EDIT.
// Op add_rms_norm: webgpu.add_rms_norm.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/add_rms_norm/add_rms_norm_rows_f16_packed_wgsl.h"
#include "ops/add_rms_norm/add_rms_norm_rows_f16_wgsl.h"
#include "ops/add_rms_norm/add_rms_norm_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "add_rms_norm";

struct AddRmsNormParams {
  uint32_t N;
  uint32_t num_rows;
  float eps;
  uint32_t _pad0;
};
static_assert(offsetof(AddRmsNormParams, N) == 0, "AddRmsNormParams.N must sit at WGSL offset 0");
static_assert(offsetof(AddRmsNormParams, num_rows) == 4,
              "AddRmsNormParams.num_rows must sit at WGSL offset 4");
static_assert(offsetof(AddRmsNormParams, eps) == 8,
              "AddRmsNormParams.eps must sit at WGSL offset 8");
static_assert(sizeof(AddRmsNormParams) == 16,
              "AddRmsNormParams must match the WGSL struct size 16");

const KernelSource kAddRmsNormRowsF16Kernel{
    "add_rms_norm_rows_f16",
    kAddRmsNormRowsF16WGSL,
    "main",
    {kAddRmsNormRowsF16WorkgroupSizeX, kAddRmsNormRowsF16WorkgroupSizeY,
     kAddRmsNormRowsF16WorkgroupSizeZ},
    kAddRmsNormRowsF16Bindings,
    kAddRmsNormRowsF16BindingCount,
    kAddRmsNormRowsF16Features,
    kAddRmsNormRowsF16RuntimeChecks};
const KernelSource kAddRmsNormRowsF16PackedKernel{
    "add_rms_norm_rows_f16_packed",
    kAddRmsNormRowsF16PackedWGSL,
    "main",
    {kAddRmsNormRowsF16PackedWorkgroupSizeX, kAddRmsNormRowsF16PackedWorkgroupSizeY,
     kAddRmsNormRowsF16PackedWorkgroupSizeZ},
    kAddRmsNormRowsF16PackedBindings,
    kAddRmsNormRowsF16PackedBindingCount,
    "",
    kAddRmsNormRowsF16PackedRuntimeChecks};
const KernelSource kAddRmsNormRowsKernel{
    "add_rms_norm_rows",
    kAddRmsNormRowsWGSL,
    "main",
    {kAddRmsNormRowsWorkgroupSizeX, kAddRmsNormRowsWorkgroupSizeY, kAddRmsNormRowsWorkgroupSizeZ},
    kAddRmsNormRowsBindings,
    kAddRmsNormRowsBindingCount,
    "",
    kAddRmsNormRowsRuntimeChecks};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kAddRmsNormRowsF16Kernel, &kAddRmsNormRowsF16PackedKernel, &kAddRmsNormRowsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct AddRmsNormPlan {
  size_t route0 = 0;
  AddRmsNormParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

AddRmsNormPlan plan_add_rms_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 5);
  const Tensor& x = graph.get_tensor(args[0]);
  const Tensor& residual = graph.get_tensor(args[1]);
  const Tensor& weight = graph.get_tensor(args[2]);
  const double eps = utils::read_double(graph, args[3], kOp, "eps");
  const std::vector<ValueRef>& out = graph.get_value_list(args[4]);
  const Tensor& sum = graph.get_tensor(utils::at(out, 0));
  const Tensor& normed = graph.get_tensor(utils::at(out, 1));
  utils::check_dtype(kOp, "x", x, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "x", x, 1, 4);
  utils::check_dtype(kOp, "residual", residual, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "residual", residual, 1, 4);
  utils::check_dtype(kOp, "weight", weight, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "weight", weight, 1, 1);
  utils::check_dtype(kOp, "sum", sum, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "sum", sum, 1, 4);
  utils::check_dtype(kOp, "normed", normed, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "normed", normed, 1, 4);
  const int64_t N = utils::let(kOp, "N = x.dims[-1]", [&]() -> int64_t { return x.dim(-1); });
  if (residual.dims() != x.dims()) {
    utils::fail(kOp, "residual", "does not have x's shape", utils::format_value(residual.dims()),
                utils::format_value(x.dims()));
  }
  if (weight.dim(0) != N) {
    utils::fail(kOp, "weight", "does not match the normalized dim",
                utils::format_value(weight.dims()), "[" + utils::format_value(N) + "]");
  }
  if (N <= 0) {
    utils::fail(kOp, "x", "has an empty last dim", utils::format_value(x.dims()),
                "a non-zero last dim");
  }
  if ((residual.dtype != x.dtype) || (weight.dtype != x.dtype)) {
    utils::fail(kOp, "x", "does not share its dtype with residual and weight",
                utils::format_value(x.dtype), "the dtype of residual and weight");
  }
  utils::check_output_dims(kOp, "sum", sum, x.dims());
  utils::check_output_dims(kOp, "normed", normed, x.dims());

  AddRmsNormPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.num_rows = utils::to_u32(utils::floordiv(x.numel(), N), kOp, "num_rows");
  plan.params0.eps = utils::to_f32(eps);
  if (graph.has_feature(Feature::ShaderF16) && (x.dtype == DType::Float16)) {
    plan.route0 = 0;  // add_rms_norm_rows_f16
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), N), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (x.dtype == DType::Float16) {
    plan.route0 = 1;  // add_rms_norm_rows_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), N), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // add_rms_norm_rows
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), N), 1,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_add_rms_norm_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& x = graph.get_tensor(args[0]);
  const std::vector<ValueRef>& out = graph.get_value_list(args[4]);
  Tensor& sum = graph.get_tensor(utils::at(out, 0));
  Tensor& normed = graph.get_tensor(utils::at(out, 1));
  utils::resize_output(kOp, "sum", sum, x.dims());
  utils::resize_output(kOp, "normed", normed, x.dims());
}

void add_add_rms_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AddRmsNormPlan built = plan_add_rms_norm(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
                          Binding::of(graph.get_value_list(args[4])[0]), Binding::of(args[2]),
                          Binding::of(graph.get_value_list(args[4])[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_add_rms_norm_outputs(graph, args);
    const AddRmsNormPlan plan = plan_add_rms_norm(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(webgpu.add_rms_norm.default, webgpu_delegate::add_add_rms_norm, None);
