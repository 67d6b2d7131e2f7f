// @generated from codegen/specs/index_select/index_select.py - DO NOT EDIT.
// Op index_select: aten.index_select.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/index_select/index_select_f16_vec4_wgsl.h"
#include "ops/index_select/index_select_f16_wgsl.h"
#include "ops/index_select/index_select_vec4_wgsl.h"
#include "ops/index_select/index_select_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "index_select";

struct IndexSelectIndexSelectVec4Params {
  uint32_t inner;
  uint32_t in_len;
  uint32_t out_len;
  uint32_t num_elements;
};
static_assert(offsetof(IndexSelectIndexSelectVec4Params, inner) == 0,
              "IndexSelectIndexSelectVec4Params.inner must sit at WGSL offset 0");
static_assert(offsetof(IndexSelectIndexSelectVec4Params, in_len) == 4,
              "IndexSelectIndexSelectVec4Params.in_len must sit at WGSL offset 4");
static_assert(offsetof(IndexSelectIndexSelectVec4Params, out_len) == 8,
              "IndexSelectIndexSelectVec4Params.out_len must sit at WGSL offset 8");
static_assert(offsetof(IndexSelectIndexSelectVec4Params, num_elements) == 12,
              "IndexSelectIndexSelectVec4Params.num_elements must sit at WGSL offset 12");
static_assert(sizeof(IndexSelectIndexSelectVec4Params) == 16,
              "IndexSelectIndexSelectVec4Params must match the WGSL struct size 16");

struct IndexSelectIndexSelectParams {
  uint32_t inner;
  uint32_t in_len;
  uint32_t out_len;
  uint32_t num_elements;
};
static_assert(offsetof(IndexSelectIndexSelectParams, inner) == 0,
              "IndexSelectIndexSelectParams.inner must sit at WGSL offset 0");
static_assert(offsetof(IndexSelectIndexSelectParams, in_len) == 4,
              "IndexSelectIndexSelectParams.in_len must sit at WGSL offset 4");
static_assert(offsetof(IndexSelectIndexSelectParams, out_len) == 8,
              "IndexSelectIndexSelectParams.out_len must sit at WGSL offset 8");
static_assert(offsetof(IndexSelectIndexSelectParams, num_elements) == 12,
              "IndexSelectIndexSelectParams.num_elements must sit at WGSL offset 12");
static_assert(sizeof(IndexSelectIndexSelectParams) == 16,
              "IndexSelectIndexSelectParams must match the WGSL struct size 16");

const KernelSource kIndexSelectF16Vec4Kernel{
    "index_select_f16_vec4",
    kIndexSelectF16Vec4WGSL,
    "main",
    {kIndexSelectF16Vec4WorkgroupSizeX, kIndexSelectF16Vec4WorkgroupSizeY,
     kIndexSelectF16Vec4WorkgroupSizeZ},
    kIndexSelectF16Vec4Bindings,
    kIndexSelectF16Vec4BindingCount};
const KernelSource kIndexSelectVec4Kernel{
    "index_select_vec4",
    kIndexSelectVec4WGSL,
    "main",
    {kIndexSelectVec4WorkgroupSizeX, kIndexSelectVec4WorkgroupSizeY,
     kIndexSelectVec4WorkgroupSizeZ},
    kIndexSelectVec4Bindings,
    kIndexSelectVec4BindingCount};
const KernelSource kIndexSelectF16Kernel{
    "index_select_f16",
    kIndexSelectF16WGSL,
    "main",
    {kIndexSelectF16WorkgroupSizeX, kIndexSelectF16WorkgroupSizeY, kIndexSelectF16WorkgroupSizeZ},
    kIndexSelectF16Bindings,
    kIndexSelectF16BindingCount};
const KernelSource kIndexSelectKernel{
    "index_select",
    kIndexSelectWGSL,
    "main",
    {kIndexSelectWorkgroupSizeX, kIndexSelectWorkgroupSizeY, kIndexSelectWorkgroupSizeZ},
    kIndexSelectBindings,
    kIndexSelectBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kIndexSelectF16Vec4Kernel,
                                                 &kIndexSelectVec4Kernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kIndexSelectF16Kernel, &kIndexSelectKernel};

// The argument values, checked and turned into what each dispatch needs.
struct IndexSelectPlan {
  bool run0 = true;
  size_t route0 = 0;
  IndexSelectIndexSelectVec4Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  IndexSelectIndexSelectParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

IndexSelectPlan plan_index_select(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& index = graph.get_tensor(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_dtype(kOp, "index", index, {DType::Int32});
  utils::check_rank(kOp, "index", index, 0, 1);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32});
  const std::vector<int64_t> dims =
      utils::let(kOp, "dims = self.dims if self.rank > 0 else [1]", [&]() -> std::vector<int64_t> {
        return (self.rank() > 0) ? self.dims() : std::vector<int64_t>{1};
      });
  const int64_t d = utils::let(kOp, "d = dim + len(dims) if dim < 0 else dim", [&]() -> int64_t {
    return (dim < 0) ? utils::add(dim, utils::length(dims)) : dim;
  });
  const int64_t D =
      utils::let(kOp, "D = dims[d] if d >= 0 and d < len(dims) else 0", [&]() -> int64_t {
        return ((d >= 0) && (d < utils::length(dims))) ? utils::at(dims, d) : 0;
      });
  const int64_t inner = utils::let(kOp, "inner = prod(dims[d + 1:])", [&]() -> int64_t {
    return utils::prod(utils::slice(dims, utils::add(d, 1), INT64_MAX));
  });
  if ((d < 0) || (d >= utils::length(dims))) {
    utils::fail(kOp, "dim", "is out of range", utils::format_value(dim),
                utils::format_value(-utils::length(dims)) + ".." +
                    utils::format_value(utils::sub(utils::length(dims), 1)));
  }
  if ((self.rank() <= 0) && (index.numel() != 1)) {
    utils::fail(kOp, "index", "does not hold one index for a 0-d self",
                utils::format_value(index.numel()), "1");
  }
  if ((self.dtype == DType::Float16) && (utils::floormod(inner, 2) != 0)) {
    utils::fail(kOp, "self",
                "holds float16 rows of an odd length past dim (rows move as whole words)",
                utils::format_value(self.dims()), "an even number of elements after dim");
  }
  utils::check_output_dims(kOp, "out", out,
                           (self.rank() > 0) ? utils::replace_at(self.dims(), d, index.numel())
                                             : std::vector<int64_t>{});

  IndexSelectPlan plan;
  plan.run0 =
      utils::floormod((self.dtype == DType::Float16) ? utils::floordiv(inner, 2) : inner, 4) == 0;
  if (plan.run0) {
    plan.params0.inner = utils::to_u32(
        utils::floordiv((self.dtype == DType::Float16) ? utils::floordiv(inner, 2) : inner, 4), kOp,
        "inner");
    plan.params0.in_len = utils::to_u32(D, kOp, "in_len");
    plan.params0.out_len = utils::to_u32(index.numel(), kOp, "out_len");
    plan.params0.num_elements = utils::to_u32(
        utils::floordiv(
            (self.dtype == DType::Float16) ? utils::floordiv(out.numel(), 2) : out.numel(), 4),
        kOp, "num_elements");
    if (self.dtype == DType::Float16) {
      plan.route0 = 0;  // index_select_f16_vec4
      plan.grid0 = utils::elementwise_grid(
          utils::floordiv(
              (self.dtype == DType::Float16) ? utils::floordiv(out.numel(), 2) : out.numel(), 4),
          kIndexSelectF16Vec4Kernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route0 = 1;  // index_select_vec4
      plan.grid0 = utils::elementwise_grid(
          utils::floordiv(
              (self.dtype == DType::Float16) ? utils::floordiv(out.numel(), 2) : out.numel(), 4),
          kIndexSelectVec4Kernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run1 =
      utils::floormod((self.dtype == DType::Float16) ? utils::floordiv(inner, 2) : inner, 4) != 0;
  if (plan.run1) {
    plan.params1.inner = utils::to_u32(
        utils::floordiv((self.dtype == DType::Float16) ? utils::floordiv(inner, 2) : inner, 1), kOp,
        "inner");
    plan.params1.in_len = utils::to_u32(D, kOp, "in_len");
    plan.params1.out_len = utils::to_u32(index.numel(), kOp, "out_len");
    plan.params1.num_elements = utils::to_u32(
        utils::floordiv(
            (self.dtype == DType::Float16) ? utils::floordiv(out.numel(), 2) : out.numel(), 1),
        kOp, "num_elements");
    if (self.dtype == DType::Float16) {
      plan.route1 = 0;  // index_select_f16
      plan.grid1 = utils::elementwise_grid(
          utils::floordiv(
              (self.dtype == DType::Float16) ? utils::floordiv(out.numel(), 2) : out.numel(), 1),
          kIndexSelectF16Kernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route1 = 1;  // index_select
      plan.grid1 = utils::elementwise_grid(
          utils::floordiv(
              (self.dtype == DType::Float16) ? utils::floordiv(out.numel(), 2) : out.numel(), 1),
          kIndexSelectKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_index_select_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& index = graph.get_tensor(args[2]);
  Tensor& out = graph.get_tensor(args[3]);
  const std::vector<int64_t> dims =
      utils::let(kOp, "dims = self.dims if self.rank > 0 else [1]", [&]() -> std::vector<int64_t> {
        return (self.rank() > 0) ? self.dims() : std::vector<int64_t>{1};
      });
  const int64_t d = utils::let(kOp, "d = dim + len(dims) if dim < 0 else dim", [&]() -> int64_t {
    return (dim < 0) ? utils::add(dim, utils::length(dims)) : dim;
  });
  utils::resize_output(kOp, "out", out,
                       (self.rank() > 0) ? utils::replace_at(self.dims(), d, index.numel())
                                         : std::vector<int64_t>{});
}

void add_index_select(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const IndexSelectPlan built = plan_index_select(graph, args);
  const DispatchId dispatch0 =
      built.run0 ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                                      {Binding::params(), Binding::of(args[0]),
                                       Binding::of(args[2]), Binding::of(args[3])},
                                      &built.params0, sizeof(built.params0), built.grid0)
                 : 0;
  const DispatchId dispatch1 =
      built.run1 ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                                      {Binding::params(), Binding::of(args[0]),
                                       Binding::of(args[2]), Binding::of(args[3])},
                                      &built.params1, sizeof(built.params1), built.grid1)
                 : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_index_select_outputs(graph, args);
    const IndexSelectPlan plan = plan_index_select(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.index_select.default, webgpu_delegate::add_index_select, None);
