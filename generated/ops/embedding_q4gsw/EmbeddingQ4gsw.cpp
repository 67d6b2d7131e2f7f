// @generated from codegen/specs/embedding_q4gsw/embedding_q4gsw.py - DO NOT EDIT.
// Op embedding_q4gsw: et_vk.embedding_q4gsw.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/embedding_q4gsw/embedding_q4gsw_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "embedding_q4gsw";

struct EmbeddingQ4gswParams {
  uint32_t D;
  uint32_t V;
  uint32_t group_size;
  uint32_t num_groups;
  uint32_t linear_order;
  uint32_t num_elements;
  uint32_t _pad0[2];
};
static_assert(offsetof(EmbeddingQ4gswParams, D) == 0,
              "EmbeddingQ4gswParams.D must sit at WGSL offset 0");
static_assert(offsetof(EmbeddingQ4gswParams, V) == 4,
              "EmbeddingQ4gswParams.V must sit at WGSL offset 4");
static_assert(offsetof(EmbeddingQ4gswParams, group_size) == 8,
              "EmbeddingQ4gswParams.group_size must sit at WGSL offset 8");
static_assert(offsetof(EmbeddingQ4gswParams, num_groups) == 12,
              "EmbeddingQ4gswParams.num_groups must sit at WGSL offset 12");
static_assert(offsetof(EmbeddingQ4gswParams, linear_order) == 16,
              "EmbeddingQ4gswParams.linear_order must sit at WGSL offset 16");
static_assert(offsetof(EmbeddingQ4gswParams, num_elements) == 20,
              "EmbeddingQ4gswParams.num_elements must sit at WGSL offset 20");
static_assert(sizeof(EmbeddingQ4gswParams) == 32,
              "EmbeddingQ4gswParams must match the WGSL struct size 32");

const KernelSource kEmbeddingQ4gswKernel{
    "embedding_q4gsw",
    kEmbeddingQ4gswWGSL,
    "main",
    {kEmbeddingQ4gswWorkgroupSizeX, kEmbeddingQ4gswWorkgroupSizeY, kEmbeddingQ4gswWorkgroupSizeZ},
    kEmbeddingQ4gswBindings,
    kEmbeddingQ4gswBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct EmbeddingQ4gswPlan {
  EmbeddingQ4gswParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

EmbeddingQ4gswPlan plan_embedding_q4gsw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& weight = graph.get_tensor(args[0]);
  const Tensor& weight_scales = graph.get_tensor(args[1]);
  const int64_t group_size = utils::read_int(graph, args[2], kOp, "group_size", false);
  const Tensor& indices = graph.get_tensor(args[3]);
  const bool is_linear_weight = graph.get_bool(args[4]);
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "weight", weight, {DType::UInt8});
  utils::check_rank(kOp, "weight", weight, 2, 2);
  utils::check_dtype(kOp, "weight_scales", weight_scales, {DType::Float32});
  utils::check_rank(kOp, "weight_scales", weight_scales, 2, 2);
  utils::check_dtype(kOp, "indices", indices, {DType::Int32});
  utils::check_rank(kOp, "indices", indices, 1, 3);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 2, 4);
  const int64_t V =
      utils::let(kOp, "V = weight.dims[0]", [&]() -> int64_t { return weight.dim(0); });
  const int64_t D = utils::let(kOp, "D = weight.dims[1] * 2",
                               [&]() -> int64_t { return utils::mul(weight.dim(1), 2); });
  if ((group_size <= 0) || (utils::floormod(D, group_size) != 0)) {
    utils::fail(kOp, "group_size", "does not divide the embedding dim",
                utils::format_value(group_size), "a divisor of " + utils::format_value(D));
  }
  if (weight_scales.dims() != std::vector<int64_t>{V, utils::floordiv(D, group_size)}) {
    utils::fail(kOp, "weight_scales", "does not hold one scale per group of each row",
                utils::format_value(weight_scales.dims()),
                "[" + utils::format_value(V) + ", " +
                    utils::format_value(utils::floordiv(D, group_size)) + "]");
  }
  utils::check_output_dims(kOp, "out", out, utils::concat(indices.dims(), std::vector<int64_t>{D}));

  EmbeddingQ4gswPlan plan;
  plan.params0.D = utils::to_u32(D, kOp, "D");
  plan.params0.V = utils::to_u32(V, kOp, "V");
  plan.params0.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params0.num_groups = utils::to_u32(utils::floordiv(D, group_size), kOp, "num_groups");
  plan.params0.linear_order = is_linear_weight ? 1 : 0;
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.grid0 = utils::elementwise_grid(out.numel(), kEmbeddingQ4gswKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_embedding_q4gsw_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& weight = graph.get_tensor(args[0]);
  const Tensor& indices = graph.get_tensor(args[3]);
  Tensor& out = graph.get_tensor(args[5]);
  const int64_t D = utils::let(kOp, "D = weight.dims[1] * 2",
                               [&]() -> int64_t { return utils::mul(weight.dim(1), 2); });
  utils::resize_output(kOp, "out", out, utils::concat(indices.dims(), std::vector<int64_t>{D}));
}

void add_embedding_q4gsw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const EmbeddingQ4gswPlan built = plan_embedding_q4gsw(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kEmbeddingQ4gswKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
                          Binding::of(args[3]), Binding::of(args[5])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_embedding_q4gsw_outputs(graph, args);
    const EmbeddingQ4gswPlan plan = plan_embedding_q4gsw(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.embedding_q4gsw.default, webgpu_delegate::add_embedding_q4gsw, None);
