// @generated from codegen/specs/reduce/arg_reduce.py - DO NOT EDIT.
// Op argmax: aten.argmax.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/reduce/arg_reduce_rows_f16_packed_wgsl.h"
#include "ops/reduce/arg_reduce_rows_f16_wgsl.h"
#include "ops/reduce/arg_reduce_rows_i32_wgsl.h"
#include "ops/reduce/arg_reduce_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "argmax";

struct ArgmaxParams {
  uint32_t num_rows;
  uint32_t reduce;
  uint32_t inner;
  uint32_t _pad0;
};
static_assert(offsetof(ArgmaxParams, num_rows) == 0,
              "ArgmaxParams.num_rows must sit at WGSL offset 0");
static_assert(offsetof(ArgmaxParams, reduce) == 4, "ArgmaxParams.reduce must sit at WGSL offset 4");
static_assert(offsetof(ArgmaxParams, inner) == 8, "ArgmaxParams.inner must sit at WGSL offset 8");
static_assert(sizeof(ArgmaxParams) == 16, "ArgmaxParams must match the WGSL struct size 16");

const KernelSource kArgReduceRowsF16Kernel{
    "arg_reduce_rows_f16",
    kArgReduceRowsF16WGSL,
    "main",
    {kArgReduceRowsF16WorkgroupSizeX, kArgReduceRowsF16WorkgroupSizeY,
     kArgReduceRowsF16WorkgroupSizeZ},
    kArgReduceRowsF16Bindings,
    kArgReduceRowsF16BindingCount,
    kArgReduceRowsF16Features};
const KernelSource kArgReduceRowsF16PackedKernel{
    "arg_reduce_rows_f16_packed",
    kArgReduceRowsF16PackedWGSL,
    "main",
    {kArgReduceRowsF16PackedWorkgroupSizeX, kArgReduceRowsF16PackedWorkgroupSizeY,
     kArgReduceRowsF16PackedWorkgroupSizeZ},
    kArgReduceRowsF16PackedBindings,
    kArgReduceRowsF16PackedBindingCount};
const KernelSource kArgReduceRowsKernel{
    "arg_reduce_rows",
    kArgReduceRowsWGSL,
    "main",
    {kArgReduceRowsWorkgroupSizeX, kArgReduceRowsWorkgroupSizeY, kArgReduceRowsWorkgroupSizeZ},
    kArgReduceRowsBindings,
    kArgReduceRowsBindingCount};
const KernelSource kArgReduceRowsI32Kernel{
    "arg_reduce_rows_i32",
    kArgReduceRowsI32WGSL,
    "main",
    {kArgReduceRowsI32WorkgroupSizeX, kArgReduceRowsI32WorkgroupSizeY,
     kArgReduceRowsI32WorkgroupSizeZ},
    kArgReduceRowsI32Bindings,
    kArgReduceRowsI32BindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kArgReduceRowsF16Kernel, &kArgReduceRowsF16PackedKernel, &kArgReduceRowsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ArgmaxPlan {
  ArgmaxParams params{};
  bool run0 = true;
  size_t route0 = 0;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

ArgmaxPlan plan_argmax(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const bool dim_is_null = graph.is_null(args[1]);
  const int64_t dim = dim_is_null ? 0 : utils::read_int(graph, args[1], kOp, "dim", false);
  const bool keepdim = graph.is_null(args[2]) ? false : graph.get_bool(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_dtype(kOp, "out", out, {DType::Int32});
  const std::vector<int64_t> dims =
      utils::let(kOp, "dims = self.dims if self.rank > 0 else [1]", [&]() -> std::vector<int64_t> {
        return (self.rank() > 0) ? self.dims() : std::vector<int64_t>{1};
      });
  const int64_t d = utils::let(
      kOp, "d = (dim + len(dims) if dim < 0 else dim) if dim is not None else 0", [&]() -> int64_t {
        return !dim_is_null ? ((dim < 0) ? utils::add(dim, utils::length(dims)) : dim) : 0;
      });
  const bool in_range =
      utils::let(kOp, "in_range = dim is None or (d >= 0 and d < len(dims))",
                 [&]() -> bool { return dim_is_null || ((d >= 0) && (d < utils::length(dims))); });
  const int64_t outer = utils::let(
      kOp, "outer = prod(dims[:d]) if dim is not None and in_range else 1", [&]() -> int64_t {
        return (!dim_is_null && in_range) ? utils::prod(utils::slice(dims, 0, d)) : 1;
      });
  const int64_t reduce =
      utils::let(kOp, "reduce = (dims[d] if in_range else 0) if dim is not None else self.numel",
                 [&]() -> int64_t {
                   return !dim_is_null ? (in_range ? utils::at(dims, d) : 0) : self.numel();
                 });
  const int64_t inner = utils::let(
      kOp, "inner = prod(dims[d + 1:]) if dim is not None and in_range else 1", [&]() -> int64_t {
        return (!dim_is_null && in_range)
                   ? utils::prod(utils::slice(dims, utils::add(d, 1), INT64_MAX))
                   : 1;
      });
  if (!in_range) {
    utils::fail(kOp, "dim", "is out of range", utils::format_value(dim),
                utils::format_value(-utils::length(dims)) + ".." +
                    utils::format_value(utils::sub(utils::length(dims), 1)) + " or None");
  }
  if (reduce <= 0) {
    utils::fail(kOp, "self", "has an empty reduced dim (torch refuses it)",
                utils::format_value(self.dims()),
                "at least one element along dim (in the tensor for dim=None)");
  }
  utils::check_output_dims(
      kOp, "out", out,
      (dim_is_null || (self.rank() == 0))
          ? (keepdim ? utils::ones(self.rank()) : std::vector<int64_t>{})
          : (keepdim ? utils::concat(
                           utils::concat(utils::slice(self.dims(), 0, d), std::vector<int64_t>{1}),
                           utils::slice(self.dims(), utils::add(d, 1), INT64_MAX))
                     : utils::concat(utils::slice(self.dims(), 0, d),
                                     utils::slice(self.dims(), utils::add(d, 1), INT64_MAX))));

  ArgmaxPlan plan;
  plan.params.num_rows = utils::to_u32(utils::mul(outer, inner), kOp, "num_rows");
  plan.params.reduce = utils::to_u32(reduce, kOp, "reduce");
  plan.params.inner = utils::to_u32(inner, kOp, "inner");
  plan.run0 = self.dtype != DType::Int32;
  if (plan.run0) {
    if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route0 = 0;  // arg_reduce_rows_f16
      plan.grid0 = utils::elementwise_grid(utils::mul(outer, inner), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"TAKE_MIN", 0.0}};
    } else if (self.dtype == DType::Float16) {
      plan.route0 = 1;  // arg_reduce_rows_f16_packed
      plan.grid0 = utils::elementwise_grid(utils::mul(outer, inner), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"TAKE_MIN", 0.0}};
    } else {
      plan.route0 = 2;  // arg_reduce_rows
      plan.grid0 = utils::elementwise_grid(utils::mul(outer, inner), 1,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"TAKE_MIN", 0.0}};
    }
  }
  plan.run1 = self.dtype == DType::Int32;
  if (plan.run1) {
    plan.grid1 = utils::elementwise_grid(utils::mul(outer, inner), 1,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides1 = {{"TAKE_MIN", 0.0}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_argmax_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const bool dim_is_null = graph.is_null(args[1]);
  const int64_t dim = dim_is_null ? 0 : utils::read_int(graph, args[1], kOp, "dim", false);
  const bool keepdim = graph.is_null(args[2]) ? false : graph.get_bool(args[2]);
  Tensor& out = graph.get_tensor(args[3]);
  const std::vector<int64_t> dims =
      utils::let(kOp, "dims = self.dims if self.rank > 0 else [1]", [&]() -> std::vector<int64_t> {
        return (self.rank() > 0) ? self.dims() : std::vector<int64_t>{1};
      });
  const int64_t d = utils::let(
      kOp, "d = (dim + len(dims) if dim < 0 else dim) if dim is not None else 0", [&]() -> int64_t {
        return !dim_is_null ? ((dim < 0) ? utils::add(dim, utils::length(dims)) : dim) : 0;
      });
  utils::resize_output(
      kOp, "out", out,
      (dim_is_null || (self.rank() == 0))
          ? (keepdim ? utils::ones(self.rank()) : std::vector<int64_t>{})
          : (keepdim ? utils::concat(
                           utils::concat(utils::slice(self.dims(), 0, d), std::vector<int64_t>{1}),
                           utils::slice(self.dims(), utils::add(d, 1), INT64_MAX))
                     : utils::concat(utils::slice(self.dims(), 0, d),
                                     utils::slice(self.dims(), utils::add(d, 1), INT64_MAX))));
}

void add_argmax(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ArgmaxPlan built = plan_argmax(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(kArgReduceRowsI32Kernel, built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_argmax_outputs(graph, args);
    const ArgmaxPlan plan = plan_argmax(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params, sizeof(plan.params), plan.grid0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params, sizeof(plan.params), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.argmax.default, webgpu_delegate::add_argmax, None);
