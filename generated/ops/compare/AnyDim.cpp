// @generated from codegen/specs/compare/any.py - DO NOT EDIT.
// Op any_dim: aten.any.dim

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/compare/any_columns_wgsl.h"
#include "ops/compare/any_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "any_dim";

struct AnyDimParams {
  uint32_t num_outputs;
  uint32_t num_words;
  uint32_t reduce;
  uint32_t inner;
};
static_assert(offsetof(AnyDimParams, num_outputs) == 0,
              "AnyDimParams.num_outputs must sit at WGSL offset 0");
static_assert(offsetof(AnyDimParams, num_words) == 4,
              "AnyDimParams.num_words must sit at WGSL offset 4");
static_assert(offsetof(AnyDimParams, reduce) == 8, "AnyDimParams.reduce must sit at WGSL offset 8");
static_assert(offsetof(AnyDimParams, inner) == 12, "AnyDimParams.inner must sit at WGSL offset 12");
static_assert(sizeof(AnyDimParams) == 16, "AnyDimParams must match the WGSL struct size 16");

const KernelSource kAnyRowsKernel{
    "any_rows",       kAnyRowsWGSL,
    "main",           {kAnyRowsWorkgroupSizeX, kAnyRowsWorkgroupSizeY, kAnyRowsWorkgroupSizeZ},
    kAnyRowsBindings, kAnyRowsBindingCount};
const KernelSource kAnyColumnsKernel{
    "any_columns",
    kAnyColumnsWGSL,
    "main",
    {kAnyColumnsWorkgroupSizeX, kAnyColumnsWorkgroupSizeY, kAnyColumnsWorkgroupSizeZ},
    kAnyColumnsBindings,
    kAnyColumnsBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kAnyRowsKernel, &kAnyColumnsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct AnyDimPlan {
  size_t route0 = 0;
  AnyDimParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

AnyDimPlan plan_any_dim(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const bool keepdim = graph.is_null(args[2]) ? false : graph.get_bool(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "out", out, {DType::Bool});
  const bool in_range = (dim >= -self.rank()) && (dim < self.rank());
  const int64_t lo = utils::let(
      kOp, "lo = (dim + self.rank if dim < 0 else dim) if in_range else 0",
      [&]() -> int64_t { return in_range ? ((dim < 0) ? utils::add(dim, self.rank()) : dim) : 0; });
  const int64_t hi = lo;
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
                "a dim in -" + utils::format_value(self.rank()) + ".." +
                    utils::format_value(utils::sub(self.rank(), 1)));
  }
  utils::check_output_dims(
      kOp, "out", out,
      keepdim ? utils::concat(utils::concat(utils::slice(self.dims(), 0, lo),
                                            utils::ones(utils::add(utils::sub(hi, lo), 1))),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX))
              : utils::concat(utils::slice(self.dims(), 0, lo),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX)));

  AnyDimPlan plan;
  plan.params0.num_outputs = utils::to_u32(utils::mul(outer, inner), kOp, "num_outputs");
  plan.params0.num_words =
      utils::to_u32(utils::ceil_div(utils::mul(outer, inner), 4), kOp, "num_words");
  plan.params0.reduce = utils::to_u32(reduce, kOp, "reduce");
  plan.params0.inner = utils::to_u32(inner, kOp, "inner");
  if (inner == 1) {
    plan.route0 = 0;  // any_rows
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(utils::mul(outer, inner), 4), 1,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {
        {"KIND",
         static_cast<double>(
             (self.dtype == DType::Float32)
                 ? 0
                 : ((self.dtype == DType::Float16) ? 5 : ((self.dtype == DType::Int32) ? 1 : 2)))}};
  } else {
    plan.route0 = 1;  // any_columns
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(utils::mul(outer, inner), 4),
                                         kAnyColumnsKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {
        {"KIND",
         static_cast<double>(
             (self.dtype == DType::Float32)
                 ? 0
                 : ((self.dtype == DType::Float16) ? 5 : ((self.dtype == DType::Int32) ? 1 : 2)))}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_any_dim_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const bool keepdim = graph.is_null(args[2]) ? false : graph.get_bool(args[2]);
  Tensor& out = graph.get_tensor(args[3]);
  const bool in_range = (dim >= -self.rank()) && (dim < self.rank());
  const int64_t lo = utils::let(
      kOp, "lo = (dim + self.rank if dim < 0 else dim) if in_range else 0",
      [&]() -> int64_t { return in_range ? ((dim < 0) ? utils::add(dim, self.rank()) : dim) : 0; });
  const int64_t hi = lo;
  utils::resize_output(
      kOp, "out", out,
      keepdim ? utils::concat(utils::concat(utils::slice(self.dims(), 0, lo),
                                            utils::ones(utils::add(utils::sub(hi, lo), 1))),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX))
              : utils::concat(utils::slice(self.dims(), 0, lo),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX)));
}

void add_any_dim(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AnyDimPlan built = plan_any_dim(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_any_dim_outputs(graph, args);
    const AnyDimPlan plan = plan_any_dim(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.any.dim, webgpu_delegate::add_any_dim, None);
