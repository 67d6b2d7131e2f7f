// @generated from codegen/specs/full/full.py - DO NOT EDIT.
// Op ones_like: aten.ones_like.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/full/fill_range_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "ones_like";

struct OnesLikeParams {
  uint32_t num_units;
  float start;
  float step;
  int32_t start_int;
  int32_t step_int;
  uint32_t _pad0[3];
};
static_assert(offsetof(OnesLikeParams, num_units) == 0,
              "OnesLikeParams.num_units must sit at WGSL offset 0");
static_assert(offsetof(OnesLikeParams, start) == 4,
              "OnesLikeParams.start must sit at WGSL offset 4");
static_assert(offsetof(OnesLikeParams, step) == 8, "OnesLikeParams.step must sit at WGSL offset 8");
static_assert(offsetof(OnesLikeParams, start_int) == 12,
              "OnesLikeParams.start_int must sit at WGSL offset 12");
static_assert(offsetof(OnesLikeParams, step_int) == 16,
              "OnesLikeParams.step_int must sit at WGSL offset 16");
static_assert(sizeof(OnesLikeParams) == 32, "OnesLikeParams must match the WGSL struct size 32");

const KernelSource kFillRangeKernel{
    "fill_range",
    kFillRangeWGSL,
    "main",
    {kFillRangeWorkgroupSizeX, kFillRangeWorkgroupSizeY, kFillRangeWorkgroupSizeZ},
    kFillRangeBindings,
    kFillRangeBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct OnesLikePlan {
  OnesLikeParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

OnesLikePlan plan_ones_like(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 7);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[6]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_output_dims(kOp, "out", out, self.dims());

  OnesLikePlan plan;
  plan.params0.num_units = utils::to_u32(
      utils::ceil_div(out.numel(),
                      (out.dtype == DType::Bool) ? 16 : ((out.dtype == DType::Float16) ? 8 : 4)),
      kOp, "num_units");
  plan.params0.start =
      utils::to_f32(((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0);
  plan.params0.step = utils::to_f32(0.0);
  plan.params0.start_int = utils::to_i32(
      (out.dtype == DType::Bool) ? 1 : ((out.dtype == DType::Int32) ? 1 : 0), kOp, "start_int");
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
void resize_ones_like_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[6]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_ones_like(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const OnesLikePlan built = plan_ones_like(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      kFillRangeKernel, built.overrides0, {Binding::params(), Binding::of(args[6])}, &built.params0,
      sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_ones_like_outputs(graph, args);
    const OnesLikePlan plan = plan_ones_like(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.ones_like.default, webgpu_delegate::add_ones_like, None);
