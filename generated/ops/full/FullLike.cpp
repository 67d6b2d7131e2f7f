// @generated from codegen/specs/full/full.py - DO NOT EDIT.
// Op full_like: aten.full_like.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/full/fill_range_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "full_like";

struct FullLikeParams {
  uint32_t num_units;
  float start;
  float step;
  int32_t start_int;
  int32_t step_int;
  uint32_t _pad0[3];
};
static_assert(offsetof(FullLikeParams, num_units) == 0,
              "FullLikeParams.num_units must sit at WGSL offset 0");
static_assert(offsetof(FullLikeParams, start) == 4,
              "FullLikeParams.start must sit at WGSL offset 4");
static_assert(offsetof(FullLikeParams, step) == 8, "FullLikeParams.step must sit at WGSL offset 8");
static_assert(offsetof(FullLikeParams, start_int) == 12,
              "FullLikeParams.start_int must sit at WGSL offset 12");
static_assert(offsetof(FullLikeParams, step_int) == 16,
              "FullLikeParams.step_int must sit at WGSL offset 16");
static_assert(sizeof(FullLikeParams) == 32, "FullLikeParams must match the WGSL struct size 32");

const KernelSource kFillRangeKernel{
    "fill_range",
    kFillRangeWGSL,
    "main",
    {kFillRangeWorkgroupSizeX, kFillRangeWorkgroupSizeY, kFillRangeWorkgroupSizeZ},
    kFillRangeBindings,
    kFillRangeBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct FullLikePlan {
  FullLikeParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

FullLikePlan plan_full_like(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 8);
  const Tensor& self = graph.get_tensor(args[0]);
  const double fill_value = graph.get_scalar(args[1]);
  const Tensor& out = graph.get_tensor(args[7]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  if ((out.dtype == DType::Float32) && !(utils::abs_value(fill_value) <= 3.4028234663852886e+38) &&
      (utils::abs_value(fill_value) <= 1.7976931348623157e+308)) {
    utils::fail(kOp, "fill_value", "overflows float32", utils::format_value(fill_value),
                "a value within +-3.4028234663852886e+38, inf or nan");
  }
  if ((out.dtype == DType::Float16) && !(utils::abs_value(fill_value) <= 65504.0) &&
      (utils::abs_value(fill_value) <= 1.7976931348623157e+308)) {
    utils::fail(kOp, "fill_value", "overflows float16", utils::format_value(fill_value),
                "a value within +-65504, inf or nan");
  }
  if ((out.dtype == DType::Int32) &&
      (!(fill_value >= -2147483648.0) || !(fill_value <= 2147483647.0))) {
    utils::fail(kOp, "fill_value", "does not fit int32 (int64 tensors are int32 on the GPU)",
                utils::format_value(fill_value), "a finite value in -2147483648..2147483647");
  }
  utils::check_output_dims(kOp, "out", out, self.dims());

  FullLikePlan plan;
  plan.params0.num_units = utils::to_u32(
      utils::ceil_div(out.numel(),
                      (out.dtype == DType::Bool) ? 16 : ((out.dtype == DType::Float16) ? 8 : 4)),
      kOp, "num_units");
  plan.params0.start = utils::to_f32(
      ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? fill_value : 0.0);
  plan.params0.step = utils::to_f32(0.0);
  plan.params0.start_int = utils::to_i32(
      (out.dtype == DType::Bool)
          ? ((fill_value != 0.0) ? 1 : 0)
          : ((out.dtype == DType::Int32) ? ((fill_value >= 0.0) ? utils::floor_to_int(fill_value)
                                                                : -utils::floor_to_int(-fill_value))
                                         : 0),
      kOp, "start_int");
  plan.params0.step_int = utils::to_i32(0, kOp, "step_int");
  plan.grid0 = utils::elementwise_grid(
      utils::ceil_div(out.numel(),
                      (out.dtype == DType::Bool) ? 16 : ((out.dtype == DType::Float16) ? 8 : 4)),
      kFillRangeKernel.workgroup_size[0] * 4, graph.limits().max_workgroups_per_dimension);
  plan.overrides0 = {
      {"KIND",
       static_cast<double>(
           (out.dtype == DType::Float32)
               ? 0
               : ((out.dtype == DType::Int32) ? 1 : ((out.dtype == DType::Float16) ? 3 : 2)))},
      {"FILL", 1.0}};
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_full_like_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[7]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_full_like(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const FullLikePlan built = plan_full_like(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      kFillRangeKernel, built.overrides0, {Binding::params(), Binding::of(args[7])}, &built.params0,
      sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_full_like_outputs(graph, args);
    const FullLikePlan plan = plan_full_like(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.full_like.default, webgpu_delegate::add_full_like, None);
