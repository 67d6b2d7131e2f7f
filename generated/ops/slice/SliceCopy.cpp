// @generated from codegen/specs/slice/slice.py - DO NOT EDIT.
// Op slice_copy: aten.slice_copy.Tensor

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/slice/slice_copy_bytes_wgsl.h"
#include "ops/slice/slice_copy_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "slice_copy";

struct SliceCopyParams {
  uint32_t inner;
  uint32_t in_len;
  uint32_t out_len;
  uint32_t start;
  uint32_t step;
  uint32_t num_elements;
  uint32_t _pad0[2];
};
static_assert(offsetof(SliceCopyParams, inner) == 0,
              "SliceCopyParams.inner must sit at WGSL offset 0");
static_assert(offsetof(SliceCopyParams, in_len) == 4,
              "SliceCopyParams.in_len must sit at WGSL offset 4");
static_assert(offsetof(SliceCopyParams, out_len) == 8,
              "SliceCopyParams.out_len must sit at WGSL offset 8");
static_assert(offsetof(SliceCopyParams, start) == 12,
              "SliceCopyParams.start must sit at WGSL offset 12");
static_assert(offsetof(SliceCopyParams, step) == 16,
              "SliceCopyParams.step must sit at WGSL offset 16");
static_assert(offsetof(SliceCopyParams, num_elements) == 20,
              "SliceCopyParams.num_elements must sit at WGSL offset 20");
static_assert(sizeof(SliceCopyParams) == 32, "SliceCopyParams must match the WGSL struct size 32");

const KernelSource kSliceCopyBytesKernel{
    "slice_copy_bytes",
    kSliceCopyBytesWGSL,
    "main",
    {kSliceCopyBytesWorkgroupSizeX, kSliceCopyBytesWorkgroupSizeY, kSliceCopyBytesWorkgroupSizeZ},
    kSliceCopyBytesBindings,
    kSliceCopyBytesBindingCount};
const KernelSource kSliceCopyKernel{
    "slice_copy",
    kSliceCopyWGSL,
    "main",
    {kSliceCopyWorkgroupSizeX, kSliceCopyWorkgroupSizeY, kSliceCopyWorkgroupSizeZ},
    kSliceCopyBindings,
    kSliceCopyBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kSliceCopyBytesKernel, &kSliceCopyKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SliceCopyPlan {
  size_t route0 = 0;
  SliceCopyParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

SliceCopyPlan plan_slice_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim =
      graph.is_null(args[1]) ? 0 : utils::read_int(graph, args[1], kOp, "dim", false);
  const int64_t start =
      graph.is_null(args[2]) ? 0 : utils::read_int(graph, args[2], kOp, "start", true);
  const int64_t end = graph.is_null(args[3]) ? int64_t{9223372036854775807}
                                             : utils::read_int(graph, args[3], kOp, "end", true);
  const int64_t step =
      graph.is_null(args[4]) ? 1 : utils::read_int(graph, args[4], kOp, "step", true);
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
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
  const int64_t s0 = utils::let(kOp, "s0 = start + D if start < 0 else start", [&]() -> int64_t {
    return (start < 0) ? utils::add(start, D) : start;
  });
  const int64_t s = utils::let(kOp, "s = 0 if s0 < 0 else min(s0, D)",
                               [&]() -> int64_t { return (s0 < 0) ? 0 : utils::min_of(s0, D); });
  const int64_t e0 = utils::let(kOp, "e0 = end + D if end < 0 else end",
                                [&]() -> int64_t { return (end < 0) ? utils::add(end, D) : end; });
  const int64_t e = utils::let(kOp, "e = s if e0 < s else min(e0, D)",
                               [&]() -> int64_t { return (e0 < s) ? s : utils::min_of(e0, D); });
  const int64_t n = utils::let(kOp, "n = ceil_div(e - s, max(step, 1))", [&]() -> int64_t {
    return utils::ceil_div(utils::sub(e, s), utils::max_of(step, 1));
  });
  if ((d < 0) || (d >= self.rank())) {
    utils::fail(kOp, "dim", "is out of range", utils::format_value(dim),
                "a dim of a rank-" + utils::format_value(self.rank()) + " tensor");
  }
  if (step < 1) {
    utils::fail(kOp, "step", "is not positive", utils::format_value(step), "a step >= 1");
  }
  utils::check_output_dims(kOp, "out", out, utils::replace_at(self.dims(), d, n));

  SliceCopyPlan plan;
  plan.params0.inner =
      utils::to_u32(utils::floordiv(utils::mul(inner, elem_bytes), unit), kOp, "inner");
  plan.params0.in_len = utils::to_u32(D, kOp, "in_len");
  plan.params0.out_len = utils::to_u32(n, kOp, "out_len");
  plan.params0.start = utils::to_u32(s, kOp, "start");
  plan.params0.step = utils::to_u32(step, kOp, "step");
  plan.params0.num_elements = utils::to_u32(
      utils::floordiv(utils::mul(out.numel(), elem_bytes), unit), kOp, "num_elements");
  if (bytes) {
    plan.route0 = 0;  // slice_copy_bytes
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(utils::mul(out.numel(), elem_bytes), 4),
                                         kSliceCopyBytesKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 1;  // slice_copy
    plan.grid0 = utils::elementwise_grid(utils::floordiv(utils::mul(out.numel(), elem_bytes), unit),
                                         kSliceCopyKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_slice_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim =
      graph.is_null(args[1]) ? 0 : utils::read_int(graph, args[1], kOp, "dim", false);
  const int64_t start =
      graph.is_null(args[2]) ? 0 : utils::read_int(graph, args[2], kOp, "start", true);
  const int64_t end = graph.is_null(args[3]) ? int64_t{9223372036854775807}
                                             : utils::read_int(graph, args[3], kOp, "end", true);
  const int64_t step =
      graph.is_null(args[4]) ? 1 : utils::read_int(graph, args[4], kOp, "step", true);
  Tensor& out = graph.get_tensor(args[5]);
  const int64_t d = utils::let(kOp, "d = dim + self.rank if dim < 0 else dim", [&]() -> int64_t {
    return (dim < 0) ? utils::add(dim, self.rank()) : dim;
  });
  const int64_t D =
      utils::let(kOp, "D = self.dims[d] if d >= 0 and d < self.rank else 0",
                 [&]() -> int64_t { return ((d >= 0) && (d < self.rank())) ? self.dim(d) : 0; });
  const int64_t s0 = utils::let(kOp, "s0 = start + D if start < 0 else start", [&]() -> int64_t {
    return (start < 0) ? utils::add(start, D) : start;
  });
  const int64_t s = utils::let(kOp, "s = 0 if s0 < 0 else min(s0, D)",
                               [&]() -> int64_t { return (s0 < 0) ? 0 : utils::min_of(s0, D); });
  const int64_t e0 = utils::let(kOp, "e0 = end + D if end < 0 else end",
                                [&]() -> int64_t { return (end < 0) ? utils::add(end, D) : end; });
  const int64_t e = utils::let(kOp, "e = s if e0 < s else min(e0, D)",
                               [&]() -> int64_t { return (e0 < s) ? s : utils::min_of(e0, D); });
  const int64_t n = utils::let(kOp, "n = ceil_div(e - s, max(step, 1))", [&]() -> int64_t {
    return utils::ceil_div(utils::sub(e, s), utils::max_of(step, 1));
  });
  utils::resize_output(kOp, "out", out, utils::replace_at(self.dims(), d, n));
}

void add_slice_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SliceCopyPlan built = plan_slice_copy(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[5])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_slice_copy_outputs(graph, args);
    const SliceCopyPlan plan = plan_slice_copy(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.slice_copy.Tensor, webgpu_delegate::add_slice_copy, None);
