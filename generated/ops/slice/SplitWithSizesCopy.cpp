// @generated from codegen/specs/slice/slice.py - DO NOT EDIT.
// Op split_with_sizes_copy: aten.split_with_sizes_copy.default

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/slice/slice_copy_bytes_wgsl.h"
#include "ops/slice/slice_copy_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "split_with_sizes_copy";

struct SplitWithSizesCopySliceCopyParams {
  uint32_t inner;
  uint32_t in_len;
  uint32_t out_len;
  uint32_t start;
  uint32_t step;
  uint32_t num_elements;
  uint32_t _pad0[2];
};
static_assert(offsetof(SplitWithSizesCopySliceCopyParams, inner) == 0,
              "SplitWithSizesCopySliceCopyParams.inner must sit at WGSL offset 0");
static_assert(offsetof(SplitWithSizesCopySliceCopyParams, in_len) == 4,
              "SplitWithSizesCopySliceCopyParams.in_len must sit at WGSL offset 4");
static_assert(offsetof(SplitWithSizesCopySliceCopyParams, out_len) == 8,
              "SplitWithSizesCopySliceCopyParams.out_len must sit at WGSL offset 8");
static_assert(offsetof(SplitWithSizesCopySliceCopyParams, start) == 12,
              "SplitWithSizesCopySliceCopyParams.start must sit at WGSL offset 12");
static_assert(offsetof(SplitWithSizesCopySliceCopyParams, step) == 16,
              "SplitWithSizesCopySliceCopyParams.step must sit at WGSL offset 16");
static_assert(offsetof(SplitWithSizesCopySliceCopyParams, num_elements) == 20,
              "SplitWithSizesCopySliceCopyParams.num_elements must sit at WGSL offset 20");
static_assert(sizeof(SplitWithSizesCopySliceCopyParams) == 32,
              "SplitWithSizesCopySliceCopyParams must match the WGSL struct size 32");

struct SplitWithSizesCopySliceCopyBytesParams {
  uint32_t inner;
  uint32_t in_len;
  uint32_t out_len;
  uint32_t start;
  uint32_t step;
  uint32_t num_elements;
  uint32_t _pad0[2];
};
static_assert(offsetof(SplitWithSizesCopySliceCopyBytesParams, inner) == 0,
              "SplitWithSizesCopySliceCopyBytesParams.inner must sit at WGSL offset 0");
static_assert(offsetof(SplitWithSizesCopySliceCopyBytesParams, in_len) == 4,
              "SplitWithSizesCopySliceCopyBytesParams.in_len must sit at WGSL offset 4");
static_assert(offsetof(SplitWithSizesCopySliceCopyBytesParams, out_len) == 8,
              "SplitWithSizesCopySliceCopyBytesParams.out_len must sit at WGSL offset 8");
static_assert(offsetof(SplitWithSizesCopySliceCopyBytesParams, start) == 12,
              "SplitWithSizesCopySliceCopyBytesParams.start must sit at WGSL offset 12");
static_assert(offsetof(SplitWithSizesCopySliceCopyBytesParams, step) == 16,
              "SplitWithSizesCopySliceCopyBytesParams.step must sit at WGSL offset 16");
static_assert(offsetof(SplitWithSizesCopySliceCopyBytesParams, num_elements) == 20,
              "SplitWithSizesCopySliceCopyBytesParams.num_elements must sit at WGSL offset 20");
static_assert(sizeof(SplitWithSizesCopySliceCopyBytesParams) == 32,
              "SplitWithSizesCopySliceCopyBytesParams must match the WGSL struct size 32");

const KernelSource kSliceCopyKernel{
    "slice_copy",
    kSliceCopyWGSL,
    "main",
    {kSliceCopyWorkgroupSizeX, kSliceCopyWorkgroupSizeY, kSliceCopyWorkgroupSizeZ},
    kSliceCopyBindings,
    kSliceCopyBindingCount};
const KernelSource kSliceCopyBytesKernel{
    "slice_copy_bytes",
    kSliceCopyBytesWGSL,
    "main",
    {kSliceCopyBytesWorkgroupSizeX, kSliceCopyBytesWorkgroupSizeY, kSliceCopyBytesWorkgroupSizeZ},
    kSliceCopyBytesBindings,
    kSliceCopyBytesBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct SplitWithSizesCopyPlan {
  // One dispatch per output of out.
  bool run0 = true;
  std::vector<SplitWithSizesCopySliceCopyParams> params0;
  std::vector<utils::Grid> grid0;
  std::vector<OverrideValue> overrides0;
  // One dispatch per output of out.
  bool run1 = true;
  std::vector<SplitWithSizesCopySliceCopyBytesParams> params1;
  std::vector<utils::Grid> grid1;
  std::vector<OverrideValue> overrides1;
};

SplitWithSizesCopyPlan plan_split_with_sizes_copy(WebGPUGraph& graph,
                                                  const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> split_sizes = utils::read_int_list(graph, args[1], kOp, "split_sizes");
  const int64_t dim =
      graph.is_null(args[2]) ? 0 : utils::read_int(graph, args[2], kOp, "dim", false);
  const std::vector<ValueRef>& out = graph.get_value_list(args[3]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  for (int64_t i = 0; i < utils::length(out); ++i) {
    const std::string argument = "out[" + std::to_string(i) + "]";
    const Tensor& chunk = graph.get_tensor(utils::at(out, i));
    utils::check_dtype(kOp, argument.c_str(), chunk,
                       {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  }
  const int64_t d = utils::let(kOp, "d = dim + self.rank if dim < 0 else dim", [&]() -> int64_t {
    return (dim < 0) ? utils::add(dim, self.rank()) : dim;
  });
  const int64_t D =
      utils::let(kOp, "D = self.dims[d] if d >= 0 and d < self.rank else 0",
                 [&]() -> int64_t { return ((d >= 0) && (d < self.rank())) ? self.dim(d) : 0; });
  const int64_t inner = utils::let(kOp, "inner = prod(self.dims[d + 1:])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), utils::add(d, 1), INT64_MAX));
  });
  const int64_t elem_bytes =
      (self.dtype == DType::Bool) ? 1 : ((self.dtype == DType::Float16) ? 2 : 4);
  const bool bytes = utils::let(kOp, "bytes = inner * elem_bytes % 4 != 0", [&]() -> bool {
    return utils::floormod(utils::mul(inner, elem_bytes), 4) != 0;
  });
  const int64_t unit = bytes ? 1 : 4;
  if ((d < 0) || (d >= self.rank())) {
    utils::fail(kOp, "dim", "is out of range", utils::format_value(dim),
                "a dim of a rank-" + utils::format_value(self.rank()) + " tensor");
  }
  if ((utils::length(split_sizes) != 0) && (utils::min_of(split_sizes) < 0)) {
    utils::fail(kOp, "split_sizes", "holds a negative size", utils::format_value(split_sizes),
                "sizes >= 0");
  }
  if (utils::sum(split_sizes) != D) {
    utils::fail(kOp, "split_sizes", "do not add up to the split dim",
                utils::format_value(split_sizes), "sizes summing to " + utils::format_value(D));
  }
  utils::check_output_count(kOp, "out", out, utils::length(split_sizes));
  for (int64_t i = 0; i < utils::length(out); ++i) {
    const std::string argument = "out[" + std::to_string(i) + "]";
    const Tensor& chunk = graph.get_tensor(utils::at(out, i));
    utils::check_output_dims(kOp, argument.c_str(), chunk,
                             utils::replace_at(self.dims(), d, utils::at(split_sizes, i)));
  }

  SplitWithSizesCopyPlan plan;
  plan.run0 = !bytes;
  if (plan.run0) {
    for (int64_t i = 0; i < utils::length(out); ++i) {
      const Tensor& chunk = graph.get_tensor(utils::at(out, i));
      SplitWithSizesCopySliceCopyParams& params = plan.params0.emplace_back();
      params.inner =
          utils::to_u32(utils::floordiv(utils::mul(inner, elem_bytes), unit), kOp, "inner");
      params.in_len = utils::to_u32(D, kOp, "in_len");
      params.out_len = utils::to_u32(utils::at(split_sizes, i), kOp, "out_len");
      params.start = utils::to_u32(utils::sum(utils::slice(split_sizes, 0, i)), kOp, "start");
      params.step = utils::to_u32(1, kOp, "step");
      params.num_elements = utils::to_u32(
          utils::floordiv(utils::mul(chunk.numel(), elem_bytes), unit), kOp, "num_elements");
      plan.grid0.push_back(utils::elementwise_grid(
          utils::floordiv(utils::mul(chunk.numel(), elem_bytes), unit),
          kSliceCopyKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension));
    }
  }
  plan.run1 = bytes;
  if (plan.run1) {
    for (int64_t i = 0; i < utils::length(out); ++i) {
      const Tensor& chunk = graph.get_tensor(utils::at(out, i));
      SplitWithSizesCopySliceCopyBytesParams& params = plan.params1.emplace_back();
      params.inner =
          utils::to_u32(utils::floordiv(utils::mul(inner, elem_bytes), unit), kOp, "inner");
      params.in_len = utils::to_u32(D, kOp, "in_len");
      params.out_len = utils::to_u32(utils::at(split_sizes, i), kOp, "out_len");
      params.start = utils::to_u32(utils::sum(utils::slice(split_sizes, 0, i)), kOp, "start");
      params.step = utils::to_u32(1, kOp, "step");
      params.num_elements = utils::to_u32(
          utils::floordiv(utils::mul(chunk.numel(), elem_bytes), unit), kOp, "num_elements");
      plan.grid1.push_back(utils::elementwise_grid(
          utils::ceil_div(utils::mul(chunk.numel(), elem_bytes), 4),
          kSliceCopyBytesKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension));
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_split_with_sizes_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> split_sizes = utils::read_int_list(graph, args[1], kOp, "split_sizes");
  const int64_t dim =
      graph.is_null(args[2]) ? 0 : utils::read_int(graph, args[2], kOp, "dim", false);
  const std::vector<ValueRef>& out = graph.get_value_list(args[3]);
  const int64_t d = utils::let(kOp, "d = dim + self.rank if dim < 0 else dim", [&]() -> int64_t {
    return (dim < 0) ? utils::add(dim, self.rank()) : dim;
  });
  for (int64_t i = 0; i < utils::length(out); ++i) {
    const std::string argument = "out[" + std::to_string(i) + "]";
    Tensor& chunk = graph.get_tensor(utils::at(out, i));
    utils::resize_output(kOp, argument.c_str(), chunk,
                         utils::replace_at(self.dims(), d, utils::at(split_sizes, i)));
  }
}

void add_split_with_sizes_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SplitWithSizesCopyPlan built = plan_split_with_sizes_copy(graph, args);
  std::vector<DispatchId> dispatch0;
  for (size_t i = 0; i < built.grid0.size(); ++i) {
    dispatch0.push_back(
        graph.add_dispatch(kSliceCopyKernel, built.overrides0,
                           {Binding::params(), Binding::of(args[0]),
                            Binding::of(utils::at(graph.get_value_list(args[3]), i))},
                           &built.params0[i], sizeof(built.params0[i]), built.grid0[i]));
  }
  std::vector<DispatchId> dispatch1;
  for (size_t i = 0; i < built.grid1.size(); ++i) {
    dispatch1.push_back(
        graph.add_dispatch(kSliceCopyBytesKernel, built.overrides1,
                           {Binding::params(), Binding::of(args[0]),
                            Binding::of(utils::at(graph.get_value_list(args[3]), i))},
                           &built.params1[i], sizeof(built.params1[i]), built.grid1[i]));
  }
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_split_with_sizes_copy_outputs(graph, args);
    const SplitWithSizesCopyPlan plan = plan_split_with_sizes_copy(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    for (size_t i = 0; i < dispatch0.size(); ++i) {
      graph.update_dispatch(dispatch0[i], &plan.params0[i], sizeof(plan.params0[i]), plan.grid0[i]);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    for (size_t i = 0; i < dispatch1.size(); ++i) {
      graph.update_dispatch(dispatch1[i], &plan.params1[i], sizeof(plan.params1[i]), plan.grid1[i]);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.split_with_sizes_copy.default, webgpu_delegate::add_split_with_sizes_copy,
                   None);
