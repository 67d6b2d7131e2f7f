// @generated from codegen/specs/index_select/gather.py - DO NOT EDIT.
// Op gather: aten.gather.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/index_select/gather_elements_halves_wgsl.h"
#include "ops/index_select/gather_elements_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "gather";

struct GatherParams {
  uint32_t out_dims[2][4];
  uint32_t self_strides[2][4];
  uint32_t dim_stride;
  uint32_t dim_size;
  uint32_t num_elements;
  uint32_t num_words;
};
static_assert(offsetof(GatherParams, out_dims) == 0,
              "GatherParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(GatherParams, self_strides) == 32,
              "GatherParams.self_strides must sit at WGSL offset 32");
static_assert(offsetof(GatherParams, dim_stride) == 64,
              "GatherParams.dim_stride must sit at WGSL offset 64");
static_assert(offsetof(GatherParams, dim_size) == 68,
              "GatherParams.dim_size must sit at WGSL offset 68");
static_assert(offsetof(GatherParams, num_elements) == 72,
              "GatherParams.num_elements must sit at WGSL offset 72");
static_assert(offsetof(GatherParams, num_words) == 76,
              "GatherParams.num_words must sit at WGSL offset 76");
static_assert(sizeof(GatherParams) == 80, "GatherParams must match the WGSL struct size 80");

const KernelSource kGatherElementsHalvesKernel{
    "gather_elements_halves",
    kGatherElementsHalvesWGSL,
    "main",
    {kGatherElementsHalvesWorkgroupSizeX, kGatherElementsHalvesWorkgroupSizeY,
     kGatherElementsHalvesWorkgroupSizeZ},
    kGatherElementsHalvesBindings,
    kGatherElementsHalvesBindingCount};
const KernelSource kGatherElementsKernel{
    "gather_elements",
    kGatherElementsWGSL,
    "main",
    {kGatherElementsWorkgroupSizeX, kGatherElementsWorkgroupSizeY, kGatherElementsWorkgroupSizeZ},
    kGatherElementsBindings,
    kGatherElementsBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kGatherElementsHalvesKernel,
                                                 &kGatherElementsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct GatherPlan {
  size_t route0 = 0;
  GatherParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

GatherPlan plan_gather(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 5);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& index = graph.get_tensor(args[2]);
  const Tensor& out = graph.get_tensor(args[4]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_rank(kOp, "self", self, 0, 8);
  utils::check_dtype(kOp, "index", index, {DType::Int32});
  utils::check_rank(kOp, "index", index, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_rank(kOp, "out", out, 0, 8);
  const std::vector<int64_t> dims =
      utils::let(kOp, "dims = self.dims if self.rank > 0 else [1]", [&]() -> std::vector<int64_t> {
        return (self.rank() > 0) ? self.dims() : std::vector<int64_t>{1};
      });
  const std::vector<int64_t> index_dims = utils::let(
      kOp, "index_dims = index.dims if index.rank > 0 else [1]", [&]() -> std::vector<int64_t> {
        return (index.rank() > 0) ? index.dims() : std::vector<int64_t>{1};
      });
  const int64_t d = utils::let(kOp, "d = dim + len(dims) if dim < 0 else dim", [&]() -> int64_t {
    return (dim < 0) ? utils::add(dim, utils::length(dims)) : dim;
  });
  const bool in_range = utils::let(kOp, "in_range = d >= 0 and d < len(dims)",
                                   [&]() -> bool { return (d >= 0) && (d < utils::length(dims)); });
  const std::vector<int64_t> strides =
      utils::let(kOp, "strides = contiguous_strides(dims)",
                 [&]() -> std::vector<int64_t> { return utils::contiguous_strides(dims); });
  const std::vector<int64_t> too_large =
      utils::let(kOp,
                 "too_large = [k for k in range(len(dims)) if k != d and k < len(index_dims) and "
                 "index_dims[k] > dims[k]]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(dims))) {
                       if ((_k != d) && (_k < utils::length(index_dims)) &&
                           (utils::at(index_dims, _k) > utils::at(dims, _k)))
                         _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  if (!in_range) {
    utils::fail(kOp, "dim", "is out of range", utils::format_value(dim),
                utils::format_value(-utils::length(dims)) + ".." +
                    utils::format_value(utils::sub(utils::length(dims), 1)));
  }
  if (index.rank() != self.rank()) {
    utils::fail(kOp, "index", "has a different number of dims from self",
                utils::format_value(index.rank()), utils::format_value(self.rank()));
  }
  if (utils::length(too_large) != 0) {
    utils::fail(kOp, "index", "is larger than self outside dim", utils::format_value(index.dims()),
                "each dim but " + utils::format_value(d) + " at most self's " +
                    utils::format_value(self.dims()));
  }
  utils::check_output_dims(kOp, "out", out, index.dims());

  GatherPlan plan;
  utils::pack(plan.params0.out_dims, 4, utils::right_align(index_dims, 8, 1), kOp, "out_dims");
  utils::pack(plan.params0.self_strides, 4,
              utils::right_align(utils::replace_at(strides, d, 0), 8, 0), kOp, "self_strides");
  plan.params0.dim_stride = utils::to_u32(utils::at(strides, d), kOp, "dim_stride");
  plan.params0.dim_size = utils::to_u32(utils::at(dims, d), kOp, "dim_size");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.params0.num_words =
      utils::to_u32((self.dtype == DType::Float16) ? utils::ceil_div(out.numel(), 2) : out.numel(),
                    kOp, "num_words");
  if (self.dtype == DType::Float16) {
    plan.route0 = 0;  // gather_elements_halves
    plan.grid0 = utils::elementwise_grid(utils::floordiv(utils::add(out.numel(), 1), 2),
                                         kGatherElementsHalvesKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 1;  // gather_elements
    plan.grid0 = utils::elementwise_grid(out.numel(), kGatherElementsKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_gather_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& index = graph.get_tensor(args[2]);
  Tensor& out = graph.get_tensor(args[4]);
  utils::resize_output(kOp, "out", out, index.dims());
}

void add_gather(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const GatherPlan built = plan_gather(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[2]), Binding::of(args[4])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_gather_outputs(graph, args);
    const GatherPlan plan = plan_gather(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.gather.default, webgpu_delegate::add_gather, None);
