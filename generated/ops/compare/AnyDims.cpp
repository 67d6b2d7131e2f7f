// @generated from codegen/specs/compare/any.py - DO NOT EDIT.
// Op any_dims: aten.any.dims

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/compare/any_columns_wgsl.h"
#include "ops/compare/any_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "any_dims";

struct AnyDimsParams {
  uint32_t num_outputs;
  uint32_t num_words;
  uint32_t reduce;
  uint32_t inner;
};
static_assert(offsetof(AnyDimsParams, num_outputs) == 0,
              "AnyDimsParams.num_outputs must sit at WGSL offset 0");
static_assert(offsetof(AnyDimsParams, num_words) == 4,
              "AnyDimsParams.num_words must sit at WGSL offset 4");
static_assert(offsetof(AnyDimsParams, reduce) == 8,
              "AnyDimsParams.reduce must sit at WGSL offset 8");
static_assert(offsetof(AnyDimsParams, inner) == 12,
              "AnyDimsParams.inner must sit at WGSL offset 12");
static_assert(sizeof(AnyDimsParams) == 16, "AnyDimsParams must match the WGSL struct size 16");

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
struct AnyDimsPlan {
  size_t route0 = 0;
  AnyDimsParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

AnyDimsPlan plan_any_dims(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> dim = graph.is_null(args[1])
                                       ? std::vector<int64_t>{}
                                       : utils::read_int_list(graph, args[1], kOp, "dim");
  const bool keepdim = graph.is_null(args[2]) ? false : graph.get_bool(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "out", out, {DType::Bool});
  const bool in_range =
      utils::let(kOp, "in_range = len(dim) > 0 and min(dim) >= -self.rank and max(dim) < self.rank",
                 [&]() -> bool {
                   return (utils::length(dim) > 0) && (utils::min_of(dim) >= -self.rank()) &&
                          (utils::max_of(dim) < self.rank());
                 });
  const std::vector<int64_t> dims = utils::let(
      kOp, "dims = normalize_dims(dim, self.rank) if in_range else range(self.rank)",
      [&]() -> std::vector<int64_t> {
        return in_range ? utils::normalize_dims(dim, self.rank()) : utils::range(self.rank());
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
  if (utils::length(dim) <= 0) {
    utils::fail(
        kOp, "dim",
        "is None or empty (torch reduces every dim or none; the graph does not tell them apart)",
        utils::format_value(dim), "at least one dim");
  }
  if (!in_range) {
    utils::fail(kOp, "dim", "names a dim the input does not have", utils::format_value(dim),
                "dims in -" + utils::format_value(self.rank()) + ".." +
                    utils::format_value(utils::sub(self.rank(), 1)));
  }
  if (utils::add(utils::sub(hi, lo), 1) != utils::length(dims)) {
    utils::fail(kOp, "dim", "does not name adjacent dims, each once", utils::format_value(dim),
                "a run of adjacent dims such as [-2, -1]");
  }
  utils::check_output_dims(
      kOp, "out", out,
      keepdim ? utils::concat(utils::concat(utils::slice(self.dims(), 0, lo),
                                            utils::ones(utils::add(utils::sub(hi, lo), 1))),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX))
              : utils::concat(utils::slice(self.dims(), 0, lo),
                              utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX)));

  AnyDimsPlan plan;
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
void resize_any_dims_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> dim = graph.is_null(args[1])
                                       ? std::vector<int64_t>{}
                                       : utils::read_int_list(graph, args[1], kOp, "dim");
  const bool keepdim = graph.is_null(args[2]) ? false : graph.get_bool(args[2]);
  Tensor& out = graph.get_tensor(args[3]);
  const bool in_range =
      utils::let(kOp, "in_range = len(dim) > 0 and min(dim) >= -self.rank and max(dim) < self.rank",
                 [&]() -> bool {
                   return (utils::length(dim) > 0) && (utils::min_of(dim) >= -self.rank()) &&
                          (utils::max_of(dim) < self.rank());
                 });
  const std::vector<int64_t> dims = utils::let(
      kOp, "dims = normalize_dims(dim, self.rank) if in_range else range(self.rank)",
      [&]() -> std::vector<int64_t> {
        return in_range ? utils::normalize_dims(dim, self.rank()) : utils::range(self.rank());
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

void add_any_dims(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AnyDimsPlan built = plan_any_dims(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_any_dims_outputs(graph, args);
    const AnyDimsPlan plan = plan_any_dims(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.any.dims, webgpu_delegate::add_any_dims, None);
