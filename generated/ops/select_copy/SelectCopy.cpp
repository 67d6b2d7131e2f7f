// @generated from codegen/specs/select_copy/select_copy.py - DO NOT EDIT.
// Op select_copy: aten.select_copy.int

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/select_copy/select_copy_bytes_wgsl.h"
#include "ops/select_copy/select_copy_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "select_copy";

struct SelectCopyParams {
  uint32_t inner;
  uint32_t size;
  uint32_t index;
  uint32_t num_elements;
};
static_assert(offsetof(SelectCopyParams, inner) == 0,
              "SelectCopyParams.inner must sit at WGSL offset 0");
static_assert(offsetof(SelectCopyParams, size) == 4,
              "SelectCopyParams.size must sit at WGSL offset 4");
static_assert(offsetof(SelectCopyParams, index) == 8,
              "SelectCopyParams.index must sit at WGSL offset 8");
static_assert(offsetof(SelectCopyParams, num_elements) == 12,
              "SelectCopyParams.num_elements must sit at WGSL offset 12");
static_assert(sizeof(SelectCopyParams) == 16,
              "SelectCopyParams must match the WGSL struct size 16");

const KernelSource kSelectCopyBytesKernel{
    "select_copy_bytes",
    kSelectCopyBytesWGSL,
    "main",
    {kSelectCopyBytesWorkgroupSizeX, kSelectCopyBytesWorkgroupSizeY,
     kSelectCopyBytesWorkgroupSizeZ},
    kSelectCopyBytesBindings,
    kSelectCopyBytesBindingCount};
const KernelSource kSelectCopyKernel{
    "select_copy",
    kSelectCopyWGSL,
    "main",
    {kSelectCopyWorkgroupSizeX, kSelectCopyWorkgroupSizeY, kSelectCopyWorkgroupSizeZ},
    kSelectCopyBindings,
    kSelectCopyBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kSelectCopyBytesKernel, &kSelectCopyKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SelectCopyPlan {
  size_t route0 = 0;
  SelectCopyParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

SelectCopyPlan plan_select_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const int64_t index = utils::read_int(graph, args[2], kOp, "index", true);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "out", out, 0, 7);
  const int64_t d = utils::let(kOp, "d = dim % self.rank",
                               [&]() -> int64_t { return utils::floormod(dim, self.rank()); });
  const int64_t size = utils::let(kOp, "size = self.dims[dim % self.rank]", [&]() -> int64_t {
    return self.dim(utils::floormod(dim, self.rank()));
  });
  const int64_t inner = utils::let(kOp, "inner = prod(self.dims[d + 1:])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), utils::add(d, 1), INT64_MAX));
  });
  const int64_t elem_bytes =
      (self.dtype == DType::Bool) ? 1 : ((self.dtype == DType::Float16) ? 2 : 4);
  const bool bytes = utils::let(kOp, "bytes = inner * elem_bytes % 4 != 0", [&]() -> bool {
    return utils::floormod(utils::mul(inner, elem_bytes), 4) != 0;
  });
  const int64_t unit = bytes ? 1 : 4;
  if ((dim < -self.rank()) || (dim >= self.rank())) {
    utils::fail(
        kOp, "dim", "is out of range", utils::format_value(dim),
        utils::format_value(-self.rank()) + ".." + utils::format_value(utils::sub(self.rank(), 1)));
  }
  if ((index < -size) || (index >= size)) {
    utils::fail(kOp, "index", "is out of range for the selected dim", utils::format_value(index),
                utils::format_value(-size) + ".." + utils::format_value(utils::sub(size, 1)));
  }
  utils::check_output_dims(kOp, "out", out,
                           utils::concat(utils::slice(self.dims(), 0, d),
                                         utils::slice(self.dims(), utils::add(d, 1), INT64_MAX)));

  SelectCopyPlan plan;
  plan.params0.inner =
      utils::to_u32(utils::floordiv(utils::mul(inner, elem_bytes), unit), kOp, "inner");
  plan.params0.size = utils::to_u32(size, kOp, "size");
  plan.params0.index = utils::to_u32(utils::floormod(index, size), kOp, "index");
  plan.params0.num_elements = utils::to_u32(
      utils::floordiv(utils::mul(out.numel(), elem_bytes), unit), kOp, "num_elements");
  if (bytes) {
    plan.route0 = 0;  // select_copy_bytes
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(utils::mul(out.numel(), elem_bytes), 4),
                                         kSelectCopyBytesKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 1;  // select_copy
    plan.grid0 = utils::elementwise_grid(utils::floordiv(utils::mul(out.numel(), elem_bytes), unit),
                                         kSelectCopyKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_select_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  Tensor& out = graph.get_tensor(args[3]);
  const int64_t d = utils::let(kOp, "d = dim % self.rank",
                               [&]() -> int64_t { return utils::floormod(dim, self.rank()); });
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(self.dims(), 0, d),
                                     utils::slice(self.dims(), utils::add(d, 1), INT64_MAX)));
}

void add_select_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SelectCopyPlan built = plan_select_copy(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_select_copy_outputs(graph, args);
    const SelectCopyPlan plan = plan_select_copy(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.select_copy.int, webgpu_delegate::add_select_copy, None);
