// @generated from codegen/specs/full/full.py - DO NOT EDIT.
// Op arange: aten.arange.start_step

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/full/fill_range_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "arange";

struct ArangeParams {
  uint32_t num_units;
  float start;
  float step;
  int32_t start_int;
  int32_t step_int;
  uint32_t _pad0[3];
};
static_assert(offsetof(ArangeParams, num_units) == 0,
              "ArangeParams.num_units must sit at WGSL offset 0");
static_assert(offsetof(ArangeParams, start) == 4, "ArangeParams.start must sit at WGSL offset 4");
static_assert(offsetof(ArangeParams, step) == 8, "ArangeParams.step must sit at WGSL offset 8");
static_assert(offsetof(ArangeParams, start_int) == 12,
              "ArangeParams.start_int must sit at WGSL offset 12");
static_assert(offsetof(ArangeParams, step_int) == 16,
              "ArangeParams.step_int must sit at WGSL offset 16");
static_assert(sizeof(ArangeParams) == 32, "ArangeParams must match the WGSL struct size 32");

const KernelSource kFillRangeKernel{
    "fill_range",
    kFillRangeWGSL,
    "main",
    {kFillRangeWorkgroupSizeX, kFillRangeWorkgroupSizeY, kFillRangeWorkgroupSizeZ},
    kFillRangeBindings,
    kFillRangeBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct ArangePlan {
  ArangeParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ArangePlan plan_arange(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 8);
  const double start = graph.get_scalar(args[0]);
  const double end = graph.get_scalar(args[1]);
  const double step = graph.is_null(args[2]) ? 1 : graph.get_scalar(args[2]);
  const Tensor& out = graph.get_tensor(args[7]);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32});
  const int64_t length =
      utils::let(kOp,
                 "length = -floor((start - end) / step) if step != 0.0 and abs(start) <= "
                 "1.7976931348623157e+308 and abs(end) <= 1.7976931348623157e+308 else 0",
                 [&]() -> int64_t {
                   return ((step != 0.0) && (utils::abs_value(start) <= 1.7976931348623157e+308) &&
                           (utils::abs_value(end) <= 1.7976931348623157e+308))
                              ? -utils::floor_to_int(utils::divide(start - end, step))
                              : 0;
                 });
  if (!(utils::abs_value(start) <= 1.7976931348623157e+308)) {
    utils::fail(kOp, "start", "is not finite", utils::format_value(start), "a finite number");
  }
  if (!(utils::abs_value(end) <= 1.7976931348623157e+308)) {
    utils::fail(kOp, "end", "is not finite", utils::format_value(end), "a finite number");
  }
  if (step == 0.0) {
    utils::fail(kOp, "step", "is zero", utils::format_value(step), "a non-zero step");
  }
  if (!(utils::divide(end - start, step) >= 0.0)) {
    utils::fail(kOp, "end", "cannot be reached from start with this step", utils::format_value(end),
                "end >= " + utils::format_value(start) + " for a positive step, end <= " +
                    utils::format_value(start) + " for a negative one");
  }
  if ((out.dtype == DType::Int32) && (utils::floor_to_int(start) != start)) {
    utils::fail(kOp, "start", "is not integral for an integer output", utils::format_value(start),
                "an integer");
  }
  if ((out.dtype == DType::Int32) && (utils::floor_to_int(end) != end)) {
    utils::fail(kOp, "end", "is not integral for an integer output", utils::format_value(end),
                "an integer");
  }
  if ((out.dtype == DType::Int32) && (utils::floor_to_int(step) != step)) {
    utils::fail(kOp, "step", "is not integral for an integer output", utils::format_value(step),
                "an integer");
  }
  if ((out.dtype == DType::Int32) &&
      (!(utils::abs_value(start) <= 2147483647.0) ||
       !(utils::abs_value(start + (static_cast<double>(utils::sub(length, 1)) * step)) <=
         2147483647.0))) {
    utils::fail(kOp, "end", "gives values beyond int32 (int64 tensors are int32 on the GPU)",
                utils::format_value(end), "a range within -2147483647..2147483647");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{length});

  ArangePlan plan;
  plan.params0.num_units = utils::to_u32(
      utils::ceil_div(out.numel(),
                      (out.dtype == DType::Bool) ? 16 : ((out.dtype == DType::Float16) ? 8 : 4)),
      kOp, "num_units");
  plan.params0.start =
      utils::to_f32(((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? start : 0.0);
  plan.params0.step = utils::to_f32(step);
  plan.params0.start_int = utils::to_i32(
      (out.dtype == DType::Bool)
          ? ((start != 0.0) ? 1 : 0)
          : ((out.dtype == DType::Int32)
                 ? ((start >= 0.0) ? utils::floor_to_int(start) : -utils::floor_to_int(-start))
                 : 0),
      kOp, "start_int");
  plan.params0.step_int =
      utils::to_i32((out.dtype == DType::Int32)
                        ? ((step >= 0.0) ? utils::floor_to_int(step) : -utils::floor_to_int(-step))
                        : 0,
                    kOp, "step_int");
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
      {"FILL", 0.0}};
  return plan;
}

void add_arange(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ArangePlan built = plan_arange(graph, args);
  graph.add_dispatch(kFillRangeKernel, built.overrides0, {Binding::params(), Binding::of(args[7])},
                     &built.params0, sizeof(built.params0), built.grid0);
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.arange.start_step, webgpu_delegate::add_arange, None);
