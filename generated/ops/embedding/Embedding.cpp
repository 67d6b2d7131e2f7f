// @generated from codegen/specs/embedding/embedding.py - DO NOT EDIT.
// Op embedding: aten.embedding.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/embedding/embedding_rows_f16_vec4_wgsl.h"
#include "ops/embedding/embedding_rows_f16_wgsl.h"
#include "ops/embedding/embedding_rows_vec4_wgsl.h"
#include "ops/embedding/embedding_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "embedding";

struct EmbeddingEmbeddingRowsVec4Params {
  uint32_t row_len;
  uint32_t num_rows;
  uint32_t num_elements;
  uint32_t _pad0;
};
static_assert(offsetof(EmbeddingEmbeddingRowsVec4Params, row_len) == 0,
              "EmbeddingEmbeddingRowsVec4Params.row_len must sit at WGSL offset 0");
static_assert(offsetof(EmbeddingEmbeddingRowsVec4Params, num_rows) == 4,
              "EmbeddingEmbeddingRowsVec4Params.num_rows must sit at WGSL offset 4");
static_assert(offsetof(EmbeddingEmbeddingRowsVec4Params, num_elements) == 8,
              "EmbeddingEmbeddingRowsVec4Params.num_elements must sit at WGSL offset 8");
static_assert(sizeof(EmbeddingEmbeddingRowsVec4Params) == 16,
              "EmbeddingEmbeddingRowsVec4Params must match the WGSL struct size 16");

struct EmbeddingEmbeddingRowsParams {
  uint32_t row_len;
  uint32_t num_rows;
  uint32_t num_elements;
  uint32_t _pad0;
};
static_assert(offsetof(EmbeddingEmbeddingRowsParams, row_len) == 0,
              "EmbeddingEmbeddingRowsParams.row_len must sit at WGSL offset 0");
static_assert(offsetof(EmbeddingEmbeddingRowsParams, num_rows) == 4,
              "EmbeddingEmbeddingRowsParams.num_rows must sit at WGSL offset 4");
static_assert(offsetof(EmbeddingEmbeddingRowsParams, num_elements) == 8,
              "EmbeddingEmbeddingRowsParams.num_elements must sit at WGSL offset 8");
static_assert(sizeof(EmbeddingEmbeddingRowsParams) == 16,
              "EmbeddingEmbeddingRowsParams must match the WGSL struct size 16");

const KernelSource kEmbeddingRowsF16Vec4Kernel{
    "embedding_rows_f16_vec4",
    kEmbeddingRowsF16Vec4WGSL,
    "main",
    {kEmbeddingRowsF16Vec4WorkgroupSizeX, kEmbeddingRowsF16Vec4WorkgroupSizeY,
     kEmbeddingRowsF16Vec4WorkgroupSizeZ},
    kEmbeddingRowsF16Vec4Bindings,
    kEmbeddingRowsF16Vec4BindingCount};
const KernelSource kEmbeddingRowsVec4Kernel{
    "embedding_rows_vec4",
    kEmbeddingRowsVec4WGSL,
    "main",
    {kEmbeddingRowsVec4WorkgroupSizeX, kEmbeddingRowsVec4WorkgroupSizeY,
     kEmbeddingRowsVec4WorkgroupSizeZ},
    kEmbeddingRowsVec4Bindings,
    kEmbeddingRowsVec4BindingCount};
const KernelSource kEmbeddingRowsF16Kernel{
    "embedding_rows_f16",
    kEmbeddingRowsF16WGSL,
    "main",
    {kEmbeddingRowsF16WorkgroupSizeX, kEmbeddingRowsF16WorkgroupSizeY,
     kEmbeddingRowsF16WorkgroupSizeZ},
    kEmbeddingRowsF16Bindings,
    kEmbeddingRowsF16BindingCount};
const KernelSource kEmbeddingRowsKernel{
    "embedding_rows",
    kEmbeddingRowsWGSL,
    "main",
    {kEmbeddingRowsWorkgroupSizeX, kEmbeddingRowsWorkgroupSizeY, kEmbeddingRowsWorkgroupSizeZ},
    kEmbeddingRowsBindings,
    kEmbeddingRowsBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kEmbeddingRowsF16Vec4Kernel,
                                                 &kEmbeddingRowsVec4Kernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kEmbeddingRowsF16Kernel, &kEmbeddingRowsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct EmbeddingPlan {
  bool run0 = true;
  size_t route0 = 0;
  EmbeddingEmbeddingRowsVec4Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  EmbeddingEmbeddingRowsParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

EmbeddingPlan plan_embedding(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& weight = graph.get_tensor(args[0]);
  const Tensor& indices = graph.get_tensor(args[1]);
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "weight", weight, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "weight", weight, 2, 2);
  utils::check_dtype(kOp, "indices", indices, {DType::Int32});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  const int64_t V =
      utils::let(kOp, "V = weight.dims[0]", [&]() -> int64_t { return weight.dim(0); });
  const int64_t D =
      utils::let(kOp, "D = weight.dims[1]", [&]() -> int64_t { return weight.dim(1); });
  if ((weight.dtype == DType::Float16) && (utils::floormod(D, 2) != 0)) {
    utils::fail(kOp, "weight", "holds float16 rows of an odd length (rows move as whole words)",
                utils::format_value(weight.dims()), "an even row length");
  }
  utils::check_output_dims(kOp, "out", out, utils::concat(indices.dims(), std::vector<int64_t>{D}));

  EmbeddingPlan plan;
  plan.run0 = utils::floormod(D, (weight.dtype == DType::Float16) ? 8 : 4) == 0;
  if (plan.run0) {
    plan.params0.row_len = utils::to_u32(
        utils::floordiv((weight.dtype == DType::Float16) ? utils::floordiv(D, 2) : D, 4), kOp,
        "row_len");
    plan.params0.num_rows = utils::to_u32(V, kOp, "num_rows");
    plan.params0.num_elements = utils::to_u32(
        utils::floordiv(utils::mul(indices.numel(),
                                   (weight.dtype == DType::Float16) ? utils::floordiv(D, 2) : D),
                        4),
        kOp, "num_elements");
    if (weight.dtype == DType::Float16) {
      plan.route0 = 0;  // embedding_rows_f16_vec4
      plan.grid0 = utils::elementwise_grid(utils::floordiv(utils::mul(indices.numel(), D), 8),
                                           kEmbeddingRowsF16Vec4Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route0 = 1;  // embedding_rows_vec4
      plan.grid0 = utils::elementwise_grid(
          utils::floordiv(utils::mul(indices.numel(),
                                     (weight.dtype == DType::Float16) ? utils::floordiv(D, 2) : D),
                          4),
          kEmbeddingRowsVec4Kernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run1 = utils::floormod(D, (weight.dtype == DType::Float16) ? 8 : 4) != 0;
  if (plan.run1) {
    plan.params1.row_len = utils::to_u32(
        utils::floordiv((weight.dtype == DType::Float16) ? utils::floordiv(D, 2) : D, 1), kOp,
        "row_len");
    plan.params1.num_rows = utils::to_u32(V, kOp, "num_rows");
    plan.params1.num_elements = utils::to_u32(
        utils::floordiv(utils::mul(indices.numel(),
                                   (weight.dtype == DType::Float16) ? utils::floordiv(D, 2) : D),
                        1),
        kOp, "num_elements");
    if (weight.dtype == DType::Float16) {
      plan.route1 = 0;  // embedding_rows_f16
      plan.grid1 = utils::elementwise_grid(utils::floordiv(utils::mul(indices.numel(), D), 2),
                                           kEmbeddingRowsF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route1 = 1;  // embedding_rows
      plan.grid1 = utils::elementwise_grid(
          utils::floordiv(utils::mul(indices.numel(),
                                     (weight.dtype == DType::Float16) ? utils::floordiv(D, 2) : D),
                          1),
          kEmbeddingRowsKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_embedding_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& weight = graph.get_tensor(args[0]);
  const Tensor& indices = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[5]);
  const int64_t D =
      utils::let(kOp, "D = weight.dims[1]", [&]() -> int64_t { return weight.dim(1); });
  utils::resize_output(kOp, "out", out, utils::concat(indices.dims(), std::vector<int64_t>{D}));
}

void add_embedding(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const EmbeddingPlan built = plan_embedding(graph, args);
  const DispatchId dispatch0 =
      built.run0 ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                                      {Binding::params(), Binding::of(args[0]),
                                       Binding::of(args[1]), Binding::of(args[5])},
                                      &built.params0, sizeof(built.params0), built.grid0)
                 : 0;
  const DispatchId dispatch1 =
      built.run1 ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                                      {Binding::params(), Binding::of(args[0]),
                                       Binding::of(args[1]), Binding::of(args[5])},
                                      &built.params1, sizeof(built.params1), built.grid1)
                 : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_embedding_outputs(graph, args);
    const EmbeddingPlan plan = plan_embedding(graph, args);
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

WEBGPU_REGISTER_OP(aten.embedding.default, webgpu_delegate::add_embedding, None);
