// @generated from codegen/specs/full/full.py - DO NOT EDIT.
// Op scalar_tensor: aten.scalar_tensor.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/full/fill_range_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "scalar_tensor";

struct ScalarTensorParams {
  uint32_t num_units;
  float start;
  float step;
  int32_t start_int;
  int32_t step_int;
  uint32_t _pad0[3];
};
static_assert(offsetof(ScalarTensorParams, num_units) == 0,
              "ScalarTensorParams.num_units must sit at WGSL offset 0");
static_assert(offsetof(ScalarTensorParams, start) == 4,
              "ScalarTensorParams.start must sit at WGSL offset 4");
static_assert(offsetof(ScalarTensorParams, step) == 8,
              "ScalarTensorParams.step must sit at WGSL offset 8");
static_assert(offsetof(ScalarTensorParams, start_int) == 12,
              "ScalarTensorParams.start_int must sit at WGSL offset 12");
static_assert(offsetof(ScalarTensorParams, step_int) == 16,
              "ScalarTensorParams.step_int must sit at WGSL offset 16");
static_assert(sizeof(ScalarTensorParams) == 32,
              "ScalarTensorParams must match the WGSL struct size 32");

const KernelSource kFillRangeKernel{
    "fill_range",
    kFillRangeWGSL,
    "main",
    {kFillRangeWorkgroupSizeX, kFillRangeWorkgroupSizeY, kFillRangeWorkgroupSizeZ},
    kFillRangeBindings,
    kFillRangeBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct ScalarTensorPlan {
  ScalarTensorParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ScalarTensorPlan plan_scalar_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const double s = graph.get_scalar(args[0]);
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  if ((out.dtype == DType::Float32) && !(utils::abs_value(s) <= 3.4028234663852886e+38) &&
      (utils::abs_value(s) <= 1.7976931348623157e+308)) {
    utils::fail(kOp, "s", "overflows float32", utils::format_value(s),
                "a value within +-3.4028234663852886e+38, inf or nan");
  }
  if ((out.dtype == DType::Float16) && !(utils::abs_value(s) <= 65504.0) &&
      (utils::abs_value(s) <= 1.7976931348623157e+308)) {
    utils::fail(kOp, "s", "overflows float16", utils::format_value(s),
                "a value within +-65504, inf or nan");
  }
  if ((out.dtype == DType::Int32) && (!(s >= -2147483648.0) || !(s <= 2147483647.0))) {
    utils::fail(kOp, "s", "does not fit int32 (int64 tensors are int32 on the GPU)",
                utils::format_value(s), "a finite value in -2147483648..2147483647");
  }
  utils::check_output_dims(kOp, "out", out, utils::ones(0));

  ScalarTensorPlan plan;
  plan.params0.num_units = utils::to_u32(
      utils::ceil_div(out.numel(),
                      (out.dtype == DType::Bool) ? 16 : ((out.dtype == DType::Float16) ? 8 : 4)),
      kOp, "num_units");
  plan.params0.start =
      utils::to_f32(((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? s : 0.0);
  plan.params0.step = utils::to_f32(0.0);
  plan.params0.start_int =
      utils::to_i32((out.dtype == DType::Bool)
                        ? ((s != 0.0) ? 1 : 0)
                        : ((out.dtype == DType::Int32)
                               ? ((s >= 0.0) ? utils::floor_to_int(s) : -utils::floor_to_int(-s))
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

void add_scalar_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ScalarTensorPlan built = plan_scalar_tensor(graph, args);
  graph.add_dispatch(kFillRangeKernel, built.overrides0, {Binding::params(), Binding::of(args[5])},
                     &built.params0, sizeof(built.params0), built.grid0);
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.scalar_tensor.default, webgpu_delegate::add_scalar_tensor, None);
