// @generated from codegen/specs/reduce/reduce.py - DO NOT EDIT.
// Op mean_dim: aten.mean.dim

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/reduce/reduce_rows_f16_packed_wgsl.h"
#include "ops/reduce/reduce_rows_f16_wgsl.h"
#include "ops/reduce/reduce_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "mean_dim";

struct MeanDimParams {
  uint32_t num_rows;
  uint32_t reduce;
  uint32_t inner;
  uint32_t _pad0;
};
static_assert(offsetof(MeanDimParams, num_rows) == 0,
              "MeanDimParams.num_rows must sit at WGSL offset 0");
static_assert(offsetof(MeanDimParams, reduce) == 4,
              "MeanDimParams.reduce must sit at WGSL offset 4");
static_assert(offsetof(MeanDimParams, inner) == 8, "MeanDimParams.inner must sit at WGSL offset 8");
static_assert(sizeof(MeanDimParams) == 16, "MeanDimParams must match the WGSL struct size 16");

const KernelSource kReduceRowsF16Kernel{
    "reduce_rows_f16",
    kReduceRowsF16WGSL,
    "main",
    {kReduceRowsF16WorkgroupSizeX, kReduceRowsF16WorkgroupSizeY, kReduceRowsF16WorkgroupSizeZ},
    kReduceRowsF16Bindings,
    kReduceRowsF16BindingCount,
    kReduceRowsF16Features};
const KernelSource kReduceRowsF16PackedKernel{
    "reduce_rows_f16_packed",
    kReduceRowsF16PackedWGSL,
    "main",
    {kReduceRowsF16PackedWorkgroupSizeX, kReduceRowsF16PackedWorkgroupSizeY,
     kReduceRowsF16PackedWorkgroupSizeZ},
    kReduceRowsF16PackedBindings,
    kReduceRowsF16PackedBindingCount};
const KernelSource kReduceRowsKernel{
    "reduce_rows",
    kReduceRowsWGSL,
    "main",
    {kReduceRowsWorkgroupSizeX, kReduceRowsWorkgroupSizeY, kReduceRowsWorkgroupSizeZ},
    kReduceRowsBindings,
    kReduceRowsBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kReduceRowsF16Kernel, &kReduceRowsF16PackedKernel,
                                                 &kReduceRowsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct MeanDimPlan {
  size_t route0 = 0;
  MeanDimParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

MeanDimPlan plan_mean_dim(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 5);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> dim = graph.is_null(args[1])
                                       ? std::vector<int64_t>{}
                                       : utils::read_int_list(graph, args[1], kOp, "dim");
  const bool keepdim = graph.is_null(args[2]) ? false : graph.get_bool(args[2]);
  const Tensor& out = graph.get_tensor(args[4]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  const bool in_range = utils::let(
      kOp, "in_range = len(dim) == 0 or (min(dim) >= -self.rank and max(dim) < self.rank)",
      [&]() -> bool {
        return (utils::length(dim) == 0) ||
               ((utils::min_of(dim) >= -self.rank()) && (utils::max_of(dim) < self.rank()));
      });
  const std::vector<int64_t> dims = utils::let(
      kOp,
      "dims = normalize_dims(dim, self.rank) if len(dim) > 0 and in_range else range(self.rank)",
      [&]() -> std::vector<int64_t> {
        return ((utils::length(dim) > 0) && in_range) ? utils::normalize_dims(dim, self.rank())
                                                      : utils::range(self.rank());
      });
  const int64_t lo =
      utils::let(kOp, "lo = min(dims)", [&]() -> int64_t { return utils::min_of(dims); });
  const int64_t hi =
      utils::let(kOp, "hi = max(dims)", [&]() -> int64_t { return utils::max_of(dims); });
  const int64_t outer = utils::let(kOp, "outer = prod(self.dims[:lo])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), 0, lo));
  });
  const int64_t reduce = utils::let(kOp, "reduce = prod(self.dims[lo:hi + 1])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), lo, utils::add(hi, 1)));
  });
  const int64_t inner = utils::let(kOp, "inner = prod(self.dims[hi + 1:])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX));
  });
  if (!in_range) {
    utils::fail(kOp, "dim", "names a dim the input does not have", utils::format_value(dim),
                "dims in -" + utils::format_value(self.rank()) + ".." +
                    utils::format_value(utils::sub(self.rank(), 1)));
  }
  if (utils::add(utils::sub(hi, lo), 1) != utils::length(dims)) {
    utils::fail(kOp, "dim", "does not name adjacent dims, each once", utils::format_value(dim),
                "a run of adjacent dims such as [-2, -1]");
  }
  if (out.dtype != self.dtype) {
    utils::fail(kOp, "dtype", "converts the result to another dtype, which is not implemented",
                utils::format_value(out.dtype),
                "None or self's dtype, " + utils::format_value(self.dtype) +
                    " (int64 is int32 on the GPU)");
  }
  utils::check_output_dims(
      kOp, "out", out,
      keepdim ? utils::concat(utils::concat(utils::slice(self.dims(), 0, lo),
                                            utils::ones(utils::add(utils::sub(hi, lo), 1))),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX))
              : utils::concat(utils::slice(self.dims(), 0, lo),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX)));

  MeanDimPlan plan;
  plan.params0.num_rows = utils::to_u32(utils::mul(outer, inner), kOp, "num_rows");
  plan.params0.reduce = utils::to_u32(reduce, kOp, "reduce");
  plan.params0.inner = utils::to_u32(inner, kOp, "inner");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // reduce_rows_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(outer, inner), 1,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"MODE", 1.0}};
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // reduce_rows_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::mul(outer, inner), 1,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"MODE", 1.0}};
  } else {
    plan.route0 = 2;  // reduce_rows
    plan.grid0 = utils::elementwise_grid(utils::mul(outer, inner), 1,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"MODE", 1.0}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_mean_dim_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> dim = graph.is_null(args[1])
                                       ? std::vector<int64_t>{}
                                       : utils::read_int_list(graph, args[1], kOp, "dim");
  const bool keepdim = graph.is_null(args[2]) ? false : graph.get_bool(args[2]);
  Tensor& out = graph.get_tensor(args[4]);
  const bool in_range = utils::let(
      kOp, "in_range = len(dim) == 0 or (min(dim) >= -self.rank and max(dim) < self.rank)",
      [&]() -> bool {
        return (utils::length(dim) == 0) ||
               ((utils::min_of(dim) >= -self.rank()) && (utils::max_of(dim) < self.rank()));
      });
  const std::vector<int64_t> dims = utils::let(
      kOp,
      "dims = normalize_dims(dim, self.rank) if len(dim) > 0 and in_range else range(self.rank)",
      [&]() -> std::vector<int64_t> {
        return ((utils::length(dim) > 0) && in_range) ? utils::normalize_dims(dim, self.rank())
                                                      : utils::range(self.rank());
      });
  const int64_t lo =
      utils::let(kOp, "lo = min(dims)", [&]() -> int64_t { return utils::min_of(dims); });
  const int64_t hi =
      utils::let(kOp, "hi = max(dims)", [&]() -> int64_t { return utils::max_of(dims); });
  utils::resize_output(
      kOp, "out", out,
      keepdim ? utils::concat(utils::concat(utils::slice(self.dims(), 0, lo),
                                            utils::ones(utils::add(utils::sub(hi, lo), 1))),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX))
              : utils::concat(utils::slice(self.dims(), 0, lo),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX)));
}

void add_mean_dim(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const MeanDimPlan built = plan_mean_dim(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[4])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_mean_dim_outputs(graph, args);
    const MeanDimPlan plan = plan_mean_dim(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.mean.dim, webgpu_delegate::add_mean_dim, None);
