// @generated from codegen/specs/full/full.py - DO NOT EDIT.
// Op zeros: aten.zeros.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/full/fill_range_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "zeros";

struct ZerosParams {
  uint32_t num_units;
  float start;
  float step;
  int32_t start_int;
  int32_t step_int;
  uint32_t _pad0[3];
};
static_assert(offsetof(ZerosParams, num_units) == 0,
              "ZerosParams.num_units must sit at WGSL offset 0");
static_assert(offsetof(ZerosParams, start) == 4, "ZerosParams.start must sit at WGSL offset 4");
static_assert(offsetof(ZerosParams, step) == 8, "ZerosParams.step must sit at WGSL offset 8");
static_assert(offsetof(ZerosParams, start_int) == 12,
              "ZerosParams.start_int must sit at WGSL offset 12");
static_assert(offsetof(ZerosParams, step_int) == 16,
              "ZerosParams.step_int must sit at WGSL offset 16");
static_assert(sizeof(ZerosParams) == 32, "ZerosParams must match the WGSL struct size 32");

const KernelSource kFillRangeKernel{
    "fill_range",
    kFillRangeWGSL,
    "main",
    {kFillRangeWorkgroupSizeX, kFillRangeWorkgroupSizeY, kFillRangeWorkgroupSizeZ},
    kFillRangeBindings,
    kFillRangeBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct ZerosPlan {
  ZerosParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ZerosPlan plan_zeros(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const std::vector<int64_t> size = utils::read_int_list(graph, args[0], kOp, "size");
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  if ((utils::length(size) != 0) && (utils::min_of(size) < 0)) {
    utils::fail(kOp, "size", "has a negative dim", utils::format_value(size), "sizes >= 0");
  }
  utils::check_output_dims(kOp, "out", out, size);

  ZerosPlan plan;
  plan.params0.num_units = utils::to_u32(
      utils::ceil_div(out.numel(),
                      (out.dtype == DType::Bool) ? 16 : ((out.dtype == DType::Float16) ? 8 : 4)),
      kOp, "num_units");
  plan.params0.start = utils::to_f32(0.0);
  plan.params0.step = utils::to_f32(0.0);
  plan.params0.start_int = utils::to_i32(0, kOp, "start_int");
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

void add_zeros(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ZerosPlan built = plan_zeros(graph, args);
  graph.add_dispatch(kFillRangeKernel, built.overrides0, {Binding::params(), Binding::of(args[5])},
                     &built.params0, sizeof(built.params0), built.grid0);
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.zeros.default, webgpu_delegate::add_zeros, None);
