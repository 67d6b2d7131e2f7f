// @generated from codegen/specs/rms_norm/rms_norm.py - DO NOT EDIT.
// Op rms_norm: et_vk.rms_norm.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/rms_norm/rms_norm_rows_f16_packed_wgsl.h"
#include "ops/rms_norm/rms_norm_rows_f16_wgsl.h"
#include "ops/rms_norm/rms_norm_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "rms_norm";

struct RmsNormParams {
  uint32_t N;
  uint32_t num_rows;
  float eps;
  uint32_t _pad0;
};
static_assert(offsetof(RmsNormParams, N) == 0, "RmsNormParams.N must sit at WGSL offset 0");
static_assert(offsetof(RmsNormParams, num_rows) == 4,
              "RmsNormParams.num_rows must sit at WGSL offset 4");
static_assert(offsetof(RmsNormParams, eps) == 8, "RmsNormParams.eps must sit at WGSL offset 8");
static_assert(sizeof(RmsNormParams) == 16, "RmsNormParams must match the WGSL struct size 16");

const KernelSource kRmsNormRowsF16Kernel{
    "rms_norm_rows_f16",
    kRmsNormRowsF16WGSL,
    "main",
    {kRmsNormRowsF16WorkgroupSizeX, kRmsNormRowsF16WorkgroupSizeY, kRmsNormRowsF16WorkgroupSizeZ},
    kRmsNormRowsF16Bindings,
    kRmsNormRowsF16BindingCount,
    kRmsNormRowsF16Features,
    kRmsNormRowsF16RuntimeChecks};
const KernelSource kRmsNormRowsF16PackedKernel{
    "rms_norm_rows_f16_packed",
    kRmsNormRowsF16PackedWGSL,
    "main",
    {kRmsNormRowsF16PackedWorkgroupSizeX, kRmsNormRowsF16PackedWorkgroupSizeY,
     kRmsNormRowsF16PackedWorkgroupSizeZ},
    kRmsNormRowsF16PackedBindings,
    kRmsNormRowsF16PackedBindingCount,
    "",
    kRmsNormRowsF16PackedRuntimeChecks};
const KernelSource kRmsNormRowsKernel{
    "rms_norm_rows",
    kRmsNormRowsWGSL,
    "main",
    {kRmsNormRowsWorkgroupSizeX, kRmsNormRowsWorkgroupSizeY, kRmsNormRowsWorkgroupSizeZ},
    kRmsNormRowsBindings,
    kRmsNormRowsBindingCount,
    "",
    kRmsNormRowsRuntimeChecks};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kRmsNormRowsF16Kernel,
                                                 &kRmsNormRowsF16PackedKernel, &kRmsNormRowsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct RmsNormPlan {
  size_t route0 = 0;
  RmsNormParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

RmsNormPlan plan_rms_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& x = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  const double eps = utils::read_double(graph, args[2], kOp, "eps");
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "x", x, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "x", x, 1, 4);
  utils::check_dtype(kOp, "weight", weight, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "weight", weight, 1, 1);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 1, 4);
  const int64_t N = utils::let(kOp, "N = x.dims[-1]", [&]() -> int64_t { return x.dim(-1); });
  if (weight.dim(0) != N) {
    utils::fail(kOp, "weight", "does not match the normalized dim",
                utils::format_value(weight.dims()), "[" + utils::format_value(N) + "]");
  }
  if (N <= 0) {
    utils::fail(kOp, "x", "has an empty last dim", utils::format_value(x.dims()),
                "a non-zero last dim");
  }
  if (weight.dtype != x.dtype) {
    utils::fail(kOp, "x", "does not share its dtype with weight", utils::format_value(x.dtype),
                "the dtype of weight");
  }
  utils::check_output_dims(kOp, "out", out, x.dims());

  RmsNormPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.num_rows = utils::to_u32(utils::floordiv(x.numel(), N), kOp, "num_rows");
  plan.params0.eps = utils::to_f32(eps);
  if (graph.has_feature(Feature::ShaderF16) && (x.dtype == DType::Float16)) {
    plan.route0 = 0;  // rms_norm_rows_f16
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), N), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (x.dtype == DType::Float16) {
    plan.route0 = 1;  // rms_norm_rows_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), N), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // rms_norm_rows
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), N), 1,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_rms_norm_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& x = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, x.dims());
}

void add_rms_norm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const RmsNormPlan built = plan_rms_norm(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[3])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_rms_norm_outputs(graph, args);
    const RmsNormPlan plan = plan_rms_norm(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.rms_norm.default, webgpu_delegate::add_rms_norm, None);
