// @generated from codegen/specs/index_tensor/index_tensor.py - DO NOT EDIT.
// Op index_tensor: aten.index.Tensor

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/index_tensor/index_tensor_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "index_tensor";

struct IndexTensorParams {
  uint32_t N;
  uint32_t inner;
  uint32_t block;
  uint32_t num_elements;
  uint32_t sizes[4];
  uint32_t block_strides[4];
  uint32_t present[4];
};
static_assert(offsetof(IndexTensorParams, N) == 0, "IndexTensorParams.N must sit at WGSL offset 0");
static_assert(offsetof(IndexTensorParams, inner) == 4,
              "IndexTensorParams.inner must sit at WGSL offset 4");
static_assert(offsetof(IndexTensorParams, block) == 8,
              "IndexTensorParams.block must sit at WGSL offset 8");
static_assert(offsetof(IndexTensorParams, num_elements) == 12,
              "IndexTensorParams.num_elements must sit at WGSL offset 12");
static_assert(offsetof(IndexTensorParams, sizes) == 16,
              "IndexTensorParams.sizes must sit at WGSL offset 16");
static_assert(offsetof(IndexTensorParams, block_strides) == 32,
              "IndexTensorParams.block_strides must sit at WGSL offset 32");
static_assert(offsetof(IndexTensorParams, present) == 48,
              "IndexTensorParams.present must sit at WGSL offset 48");
static_assert(sizeof(IndexTensorParams) == 64,
              "IndexTensorParams must match the WGSL struct size 64");

const KernelSource kIndexTensorKernel{
    "index_tensor",
    kIndexTensorWGSL,
    "main",
    {kIndexTensorWorkgroupSizeX, kIndexTensorWorkgroupSizeY, kIndexTensorWorkgroupSizeZ}};

// The argument values, checked and turned into what each dispatch needs.
struct IndexTensorPlan {
  IndexTensorParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

IndexTensorPlan plan_index_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  std::vector<const Tensor*> indices;  // nullptr for a None entry
  for (const ValueRef item : graph.get_value_list(args[1])) {
    indices.push_back(graph.is_null(item) ? nullptr : &graph.get_tensor(item));
  }
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self, {DType::Float32});
  utils::check_rank(kOp, "self", self, 1, 4);
  if (indices.size() > 4) {
    utils::fail(kOp, "indices", "holds too many tensors",
                utils::format_value(utils::length(indices)), "at most 4");
  }
  for (const Tensor* item : indices) {
    if (item != nullptr) {
      utils::check_dtype(kOp, "indices", *item, {DType::Int32});
      utils::check_rank(kOp, "indices", *item, 1, 1);
    }
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 1, 4);
  const bool p0 = (utils::length(indices) > 0) && (utils::at(indices, 0) != nullptr);
  const bool p1 = (utils::length(indices) > 1) && (utils::at(indices, 1) != nullptr);
  const bool p2 = (utils::length(indices) > 2) && (utils::at(indices, 2) != nullptr);
  const bool p3 = (utils::length(indices) > 3) && (utils::at(indices, 3) != nullptr);
  const int64_t count =
      utils::add(utils::add(utils::add(p0 ? 1 : 0, p1 ? 1 : 0), p2 ? 1 : 0), p3 ? 1 : 0);
  const int64_t first = p0 ? 0 : (p1 ? 1 : (p2 ? 2 : (p3 ? 3 : 0)));
  const int64_t last = p3 ? 3 : (p2 ? 2 : (p1 ? 1 : 0));
  const int64_t N = (count > 0) ? utils::at(indices, first)->dim(0) : 0;
  const std::vector<int64_t> lengths = std::vector<int64_t>{
      p0 ? utils::at(indices, 0)->dim(0) : -1, p1 ? utils::at(indices, 1)->dim(0) : -1,
      p2 ? utils::at(indices, 2)->dim(0) : -1, p3 ? utils::at(indices, 3)->dim(0) : -1};
  if (!(count > 0)) {
    utils::fail(kOp, "indices", "holds no index tensor",
                utils::format_value(utils::length(indices)), "at least one non-None entry");
  }
  if (!(utils::length(indices) <= self.rank())) {
    utils::fail(kOp, "indices", "has more entries than self has dims",
                utils::format_value(utils::length(indices)),
                "at most " + utils::format_value(self.rank()));
  }
  if (!(count == utils::add(utils::sub(last, first), 1))) {
    utils::fail(kOp, "indices",
                "holds index tensors on non-adjacent dims (only adjacent ones are supported)",
                utils::format_value(lengths), "adjacent non-None entries");
  }
  if (!((!p0 || (utils::at(lengths, 0) == N)) && (!p1 || (utils::at(lengths, 1) == N)) &&
        (!p2 || (utils::at(lengths, 2) == N)) && (!p3 || (utils::at(lengths, 3) == N)))) {
    utils::fail(kOp, "indices", "holds index tensors of different lengths",
                utils::format_value(lengths), "one length (None entries show as -1)");
  }
  utils::check_output_dims(
      kOp, "out", out,
      utils::concat(utils::concat(utils::slice(self.dims(), 0, first), std::vector<int64_t>{N}),
                    utils::slice(self.dims(), utils::add(last, 1), INT64_MAX)));

  IndexTensorPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.inner = utils::to_u32(
      utils::prod(utils::slice(self.dims(), utils::add(last, 1), INT64_MAX)), kOp, "inner");
  plan.params0.block = utils::to_u32(
      utils::prod(utils::slice(self.dims(), first, utils::add(last, 1))), kOp, "block");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  utils::pack(plan.params0.sizes,
              utils::concat(self.dims(),
                            utils::slice(std::vector<int64_t>{1, 1, 1, 1}, self.rank(), INT64_MAX)),
              kOp, "sizes");
  utils::pack(
      plan.params0.block_strides,
      std::vector<int64_t>{p0 ? utils::prod(utils::slice(self.dims(), 1, utils::add(last, 1))) : 0,
                           p1 ? utils::prod(utils::slice(self.dims(), 2, utils::add(last, 1))) : 0,
                           p2 ? utils::prod(utils::slice(self.dims(), 3, utils::add(last, 1))) : 0,
                           p3 ? utils::prod(utils::slice(self.dims(), 4, utils::add(last, 1))) : 0},
      kOp, "block_strides");
  utils::pack(plan.params0.present,
              std::vector<int64_t>{p0 ? 1 : 0, p1 ? 1 : 0, p2 ? 1 : 0, p3 ? 1 : 0}, kOp, "present");
  plan.grid0 = utils::elementwise_grid(out.numel(), kIndexTensorKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_index_tensor_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  std::vector<const Tensor*> indices;  // nullptr for a None entry
  for (const ValueRef item : graph.get_value_list(args[1])) {
    indices.push_back(graph.is_null(item) ? nullptr : &graph.get_tensor(item));
  }
  Tensor& out = graph.get_tensor(args[2]);
  const bool p0 = (utils::length(indices) > 0) && (utils::at(indices, 0) != nullptr);
  const bool p1 = (utils::length(indices) > 1) && (utils::at(indices, 1) != nullptr);
  const bool p2 = (utils::length(indices) > 2) && (utils::at(indices, 2) != nullptr);
  const bool p3 = (utils::length(indices) > 3) && (utils::at(indices, 3) != nullptr);
  const int64_t count =
      utils::add(utils::add(utils::add(p0 ? 1 : 0, p1 ? 1 : 0), p2 ? 1 : 0), p3 ? 1 : 0);
  const int64_t first = p0 ? 0 : (p1 ? 1 : (p2 ? 2 : (p3 ? 3 : 0)));
  const int64_t last = p3 ? 3 : (p2 ? 2 : (p1 ? 1 : 0));
  const int64_t N = (count > 0) ? utils::at(indices, first)->dim(0) : 0;
  utils::resize_output(
      kOp, "out", out,
      utils::concat(utils::concat(utils::slice(self.dims(), 0, first), std::vector<int64_t>{N}),
                    utils::slice(self.dims(), utils::add(last, 1), INT64_MAX)));
}

void add_index_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const IndexTensorPlan built = plan_index_tensor(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kIndexTensorKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]),
                          utils::length(graph.get_value_list(args[1])) > 0 &&
                                  !graph.is_null(graph.get_value_list(args[1])[0])
                              ? Binding::of(graph.get_value_list(args[1])[0])
                              : Binding::dummy(4),
                          utils::length(graph.get_value_list(args[1])) > 1 &&
                                  !graph.is_null(graph.get_value_list(args[1])[1])
                              ? Binding::of(graph.get_value_list(args[1])[1])
                              : Binding::dummy(4),
                          utils::length(graph.get_value_list(args[1])) > 2 &&
                                  !graph.is_null(graph.get_value_list(args[1])[2])
                              ? Binding::of(graph.get_value_list(args[1])[2])
                              : Binding::dummy(4),
                          utils::length(graph.get_value_list(args[1])) > 3 &&
                                  !graph.is_null(graph.get_value_list(args[1])[3])
                              ? Binding::of(graph.get_value_list(args[1])[3])
                              : Binding::dummy(4),
                          Binding::of(args[2])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_index_tensor_outputs(graph, args);
    const IndexTensorPlan plan = plan_index_tensor(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.index.Tensor, webgpu_delegate::add_index_tensor);
