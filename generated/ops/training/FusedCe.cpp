// @generated from codegen/specs/training/fused_ce.py - DO NOT EDIT.
// Op fused_ce: et_vk.fused_ce.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/training/fused_ce_rows_wgsl.h"
#include "ops/training/fused_ce_sum_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "fused_ce";

struct FusedCeRowsParams {
  uint32_t num_rows;
  uint32_t C;
  float inv_n_valid;
  uint32_t _pad0;
};
static_assert(offsetof(FusedCeRowsParams, num_rows) == 0,
              "FusedCeRowsParams.num_rows must sit at WGSL offset 0");
static_assert(offsetof(FusedCeRowsParams, C) == 4, "FusedCeRowsParams.C must sit at WGSL offset 4");
static_assert(offsetof(FusedCeRowsParams, inv_n_valid) == 8,
              "FusedCeRowsParams.inv_n_valid must sit at WGSL offset 8");
static_assert(sizeof(FusedCeRowsParams) == 16,
              "FusedCeRowsParams must match the WGSL struct size 16");

struct FusedCeSumParams {
  uint32_t num_rows;
  uint32_t C;
  float inv_n_valid;
  uint32_t _pad0;
};
static_assert(offsetof(FusedCeSumParams, num_rows) == 0,
              "FusedCeSumParams.num_rows must sit at WGSL offset 0");
static_assert(offsetof(FusedCeSumParams, C) == 4, "FusedCeSumParams.C must sit at WGSL offset 4");
static_assert(offsetof(FusedCeSumParams, inv_n_valid) == 8,
              "FusedCeSumParams.inv_n_valid must sit at WGSL offset 8");
static_assert(sizeof(FusedCeSumParams) == 16,
              "FusedCeSumParams must match the WGSL struct size 16");

const KernelSource kFusedCeRowsKernel{
    "fused_ce_rows",
    kFusedCeRowsWGSL,
    "main",
    {kFusedCeRowsWorkgroupSizeX, kFusedCeRowsWorkgroupSizeY, kFusedCeRowsWorkgroupSizeZ},
    kFusedCeRowsBindings,
    kFusedCeRowsBindingCount};
const KernelSource kFusedCeSumKernel{
    "fused_ce_sum",
    kFusedCeSumWGSL,
    "main",
    {kFusedCeSumWorkgroupSizeX, kFusedCeSumWorkgroupSizeY, kFusedCeSumWorkgroupSizeZ},
    kFusedCeSumBindings,
    kFusedCeSumBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct FusedCePlan {
  std::vector<int64_t> scratch_row_loss;  // dims of scratch tensor row_loss
  FusedCeRowsParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  FusedCeSumParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

FusedCePlan plan_fused_ce(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& logits = graph.get_tensor(args[0]);
  const Tensor& labels = graph.get_tensor(args[1]);
  const double n_valid = utils::read_double(graph, args[2], kOp, "n_valid");
  const std::vector<ValueRef>& out = graph.get_value_list(args[3]);
  const Tensor& loss = graph.get_tensor(utils::at(out, 0));
  const Tensor& dlogits = graph.get_tensor(utils::at(out, 1));
  utils::check_dtype(kOp, "logits", logits, {DType::Float32});
  utils::check_rank(kOp, "logits", logits, 2, 2);
  utils::check_dtype(kOp, "labels", labels, {DType::Int64, DType::Int32});
  utils::check_rank(kOp, "labels", labels, 1, 1);
  utils::check_dtype(kOp, "loss", loss, {DType::Float32});
  utils::check_rank(kOp, "loss", loss, 0, 0);
  utils::check_dtype(kOp, "dlogits", dlogits, {DType::Float32});
  utils::check_rank(kOp, "dlogits", dlogits, 2, 2);
  const int64_t N =
      utils::let(kOp, "N = logits.dims[0]", [&]() -> int64_t { return logits.dim(0); });
  const int64_t C =
      utils::let(kOp, "C = logits.dims[1]", [&]() -> int64_t { return logits.dim(1); });
  if (labels.dims() != std::vector<int64_t>{N}) {
    utils::fail(kOp, "labels", "does not hold one label per row",
                utils::format_value(labels.dims()), "[" + utils::format_value(N) + "]");
  }
  if (C <= 0) {
    utils::fail(kOp, "logits", "has no classes", utils::format_value(logits.dims()),
                "at least one class");
  }
  if (!(n_valid > 0.0)) {
    utils::fail(kOp, "n_valid", "is not positive (it divides)", utils::format_value(n_valid),
                "the count of labelled rows");
  }
  utils::check_output_dims(kOp, "loss", loss, utils::ones(0));
  utils::check_output_dims(kOp, "dlogits", dlogits, logits.dims());
  Tensor row_loss;  // scratch, allocated by add_fused_ce
  row_loss.dtype = DType::Float32;
  row_loss.max_dims = std::vector<int64_t>{N};
  row_loss.live_dims = row_loss.max_dims;

  FusedCePlan plan;
  plan.scratch_row_loss = row_loss.dims();
  plan.params0.num_rows = utils::to_u32(N, kOp, "num_rows");
  plan.params0.C = utils::to_u32(C, kOp, "C");
  plan.params0.inv_n_valid = utils::to_f32(utils::divide(1.0, n_valid));
  plan.grid0 = utils::elementwise_grid(N, 1, graph.limits().max_workgroups_per_dimension);
  plan.params1.num_rows = utils::to_u32(N, kOp, "num_rows");
  plan.params1.C = utils::to_u32(C, kOp, "C");
  plan.params1.inv_n_valid = utils::to_f32(utils::divide(1.0, n_valid));
  plan.grid1 = utils::elementwise_grid(1, 1, graph.limits().max_workgroups_per_dimension);
  return plan;
}

void add_fused_ce(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const FusedCePlan built = plan_fused_ce(graph, args);
  // Scratch tensor row_loss: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_row_loss = graph.add_tensor(DType::Float32, built.scratch_row_loss);
  graph.add_dispatch(kFusedCeRowsKernel, built.overrides0,
                     {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
                      Binding::of(graph.get_value_list(args[3])[1]), Binding::of(scratch_row_loss)},
                     &built.params0, sizeof(built.params0), built.grid0);
  graph.add_dispatch(kFusedCeSumKernel, built.overrides1,
                     {Binding::params(), Binding::of(scratch_row_loss),
                      Binding::of(graph.get_value_list(args[3])[0])},
                     &built.params1, sizeof(built.params1), built.grid1);
  // Static shapes only: a resized input is an error, never a silent run at the built shape.
  graph.add_resize_hook([args](WebGPUGraph& graph) {
    utils::check_not_resized(kOp, "logits", graph.get_tensor(args[0]));
    utils::check_not_resized(kOp, "labels", graph.get_tensor(args[1]));
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.fused_ce.default, webgpu_delegate::add_fused_ce, None);
